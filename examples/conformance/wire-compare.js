// Compares the suite's `wire-schema-valid` verdicts with `mcp-schema check` on the same messages.
//
//   node wire-compare.js OUT-DIR MCP-SCHEMA [EXPECTED-FAILURES]
//
// OUT-DIR is what run.sh leaves: MODE/REV/SCENARIO/ folders, each with the suite's checks.json and
// messages.jsonl, the recording of what the example program read and wrote in that scenario. The
// suite validates what the implementation sent; so does this, on the recording's lines of the
// implementation's direction, with the peer's lines there so that responses pair with requests.
// The suite's count takes in both sides (it also validates what its own harness sends), so the
// table puts it beside the recording's count of both directions. The suite validates only the
// messages that pass through its generic mock server; a scenario with its own server (most of the
// 2026-07-28 client scenarios) validates none, so a message of such a scenario is no agreement:
// it counts as "not validated by the suite" (and still as a disagreement if mcp-schema flags it).
// Prints a Markdown table (also
// written to OUT-DIR/wire-compare.md) and every disagreement; exits 1 when there is one, unless its
// scenario is listed in EXPECTED-FAILURES (a program speaking another version than the scenario's
// is expected to disagree with the scenario's schema).
"use strict";
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const [out, mcpSchema, expectedFile] = process.argv.slice(2);
const expected = new Map();
if (expectedFile && fs.existsSync(expectedFile)) {
  for (const line of fs.readFileSync(expectedFile, "utf8").split("\n")) {
    const [mode, rev, scenario, ...reason] = line.trim().split(/\s+/);
    if (mode && !mode.startsWith("#") && scenario) expected.set(`${mode} ${rev} ${scenario}`, reason.join(" "));
  }
}
const dirs = (d) =>
  fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name) : [];
const checksFiles = (d) =>
  fs.readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? checksFiles(path.join(d, e.name)) : e.name === "checks.json" ? [path.join(d, e.name)] : []);
// Key order does not matter when matching the suite's copy of a message to the recording's.
const canonical = (v) =>
  Array.isArray(v) ? v.map(canonical)
    : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]))
      : v;
const key = (v) => JSON.stringify(canonical(v));

const rows = [];
const disagreements = [];
const knownDisagreements = [];
for (const mode of ["server", "client"]) {
  const own = mode === "server" ? "s2c" : "c2s";
  for (const rev of dirs(path.join(out, mode))) {
    const row = { mode, rev, scenarios: 0, suite: 0, recorded: 0, ours: 0, unvalidated: 0, agree: 0, disagree: 0, known: 0 };
    for (const scenario of dirs(path.join(out, mode, rev))) {
      const dir = path.join(out, mode, rev, scenario);
      row.scenarios++;
      // The suite: how many messages it validated, and the ones it found invalid.
      const suiteBad = new Map();
      let validated = 0;
      for (const file of checksFiles(dir)) {
        for (const c of JSON.parse(fs.readFileSync(file, "utf8"))) {
          if (c.id !== "wire-schema-valid") continue;
          validated += c.details?.messagesValidated ?? 0;
          for (const v of c.details?.violations ?? []) suiteBad.set(key(v.message), v.errors.join("; "));
        }
      }
      row.suite += validated;
      // Ours: the recording, checked at the set's version (the suite's 0.1.16 has no sets: auto).
      const recording = path.join(dir, "messages.jsonl");
      const lines = fs.existsSync(recording) ? fs.readFileSync(recording, "utf8").split("\n").filter(Boolean) : [];
      row.recorded += lines.length;
      const known = expected.get(`${mode} ${rev} ${scenario}`);
      const disagree = (d) => {
        if (known === undefined) {
          row.disagree++;
          disagreements.push(d);
        } else {
          row.known++;
          knownDisagreements.push({ ...d, known });
        }
      };
      if (lines.length === 0) {
        for (const [m, why] of suiteBad) disagree({ mode, rev, scenario, who: "suite only, not recorded", why, message: m });
        continue;
      }
      const protocol = rev === "all" ? "auto" : rev;
      const run = spawnSync(mcpSchema, ["check", "--protocol", protocol, "--json", recording], { encoding: "utf8" });
      if (run.status !== 0 && run.status !== 1) {
        console.error(`mcp-schema check failed on ${recording}: ${run.stderr}`);
        process.exit(2);
      }
      const results = new Map();
      for (const l of run.stdout.split("\n").filter(Boolean)) {
        const r = JSON.parse(l);
        if (r.line !== undefined) results.set(r.line, r);
      }
      const seen = new Set();
      lines.forEach((text, i) => {
        const wrapper = JSON.parse(text);
        if (wrapper.dir !== own) return;
        row.ours++;
        const errors = (results.get(i + 1)?.violations ?? []).filter((v) => v.severity === "error");
        const k = key(wrapper.msg);
        const suiteSays = suiteBad.get(k);
        seen.add(k);
        if (validated === 0) {
          row.unvalidated++;
          if (errors.length > 0) {
            disagree({
              mode, rev, scenario, who: "mcp-schema only (the suite validated no message of this scenario)",
              why: errors.map((e) => `${e.pointer} [${e.rule}] ${e.message}`).join("; "), message: JSON.stringify(wrapper.msg),
            });
          }
        } else if ((errors.length > 0) === (suiteSays !== undefined)) {
          row.agree++;
        } else {
          disagree({
            mode, rev, scenario,
            who: errors.length > 0 ? "mcp-schema only" : "suite only",
            why: errors.length > 0 ? errors.map((e) => `${e.pointer} [${e.rule}] ${e.message}`).join("; ") : suiteSays,
            message: JSON.stringify(wrapper.msg),
          });
        }
      });
      for (const [m, why] of suiteBad) {
        if (!seen.has(m)) disagree({ mode, rev, scenario, who: "suite only, not recorded", why, message: m });
      }
    }
    rows.push(row);
  }
}

const table = [
  "| Side | Requirements | Scenarios | Suite validated (both sides) | Recorded (both sides) | The implementation's, checked | Of them in scenarios the suite validated nothing of | Agreements | Disagreements | Of them in expected failures |",
  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...rows.map((r) => `| ${r.mode} | ${r.rev === "all" ? "(all scenarios)" : r.rev} | ${r.scenarios} | ${r.suite} | ${r.recorded} | ${r.ours} | ${r.unvalidated} | ${r.suite === 0 ? "– (the suite validated none)" : r.agree} | ${r.disagree + r.known} | ${r.known} |`),
].join("\n");
const show = (d) => `- ${d.mode} ${d.rev} ${d.scenario}: ${d.who}: ${d.why}\n  message: ${d.message.slice(0, 600)}`;
const details = [
  ...disagreements.map(show),
  ...knownDisagreements.map((d) => `${show(d)}\n  (expected failure: ${d.known})`),
].join("\n");
fs.writeFileSync(path.join(out, "wire-compare.md"), `${table}\n${details ? "\n" + details + "\n" : ""}`);
console.log("wire-schema-valid against mcp-schema check, on the same messages:");
console.log(table);
if (details) console.log(details);
process.exit(disagreements.length > 0 ? 1 : 0);
