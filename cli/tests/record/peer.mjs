#!/usr/bin/env node
// Records one stdio session with any MCP server, for `peers.sh`: the client proposes
// VERSION, lists what the server offers, makes the calls in CALLS.json (an array of
// [method, params]), calls a tool that does not exist, pings, and writes every message as
// JSONL, `{"dir":"c2s"|"s2c","msg":MESSAGE}`, server lines byte for byte.
//
//   node peer.mjs VERSION OUT.jsonl CALLS.json -- SERVER_COMMAND...

import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const args = process.argv.slice(2);
const dashes = args.indexOf("--");
if (dashes !== 3 || dashes === args.length - 1) {
  console.error("usage: peer.mjs VERSION OUT.jsonl CALLS.json -- SERVER_COMMAND...");
  process.exit(2);
}
const [version, out, callsFile] = args;
const command = args.slice(dashes + 1);
const calls = JSON.parse(readFileSync(callsFile, "utf8"));

const log = [];
const pending = new Map();
let nextId = 0;
let rest = "";
const child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "ignore"] });

function send(msg) {
  const text = JSON.stringify(msg);
  log.push(`{"dir":"c2s","msg":${text}}`);
  child.stdin.write(text + "\n");
}

// The server's own requests: roots and ping are answered, anything else is refused.
function answer(msg) {
  if (msg.method === "roots/list") return { result: { roots: [{ uri: "file:///tmp", name: "tmp" }] } };
  if (msg.method === "ping") return { result: {} };
  return { error: { code: -32601, message: `Method not found: ${msg.method}` } };
}

child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => {
  rest += chunk;
  let nl;
  while ((nl = rest.indexOf("\n")) >= 0) {
    const line = rest.slice(0, nl).replace(/\r$/, "");
    rest = rest.slice(nl + 1);
    if (line.trim() === "") continue;
    log.push(`{"dir":"s2c","msg":${line}}`);
    const msg = JSON.parse(line);
    if (msg.method !== undefined && msg.id !== undefined) send({ jsonrpc: "2.0", id: msg.id, ...answer(msg) });
    else if (msg.method === undefined && pending.has(msg.id)) {
      pending.get(msg.id)(msg);
      pending.delete(msg.id);
    }
  }
});

// A request; a server that does not answer within 15 s is recorded as such and passed over.
function call(method, params) {
  const id = ++nextId;
  const msg = { jsonrpc: "2.0", id, method };
  if (params !== undefined) msg.params = params;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      console.error(`${out}: no answer to ${method}`);
      resolve(null);
    }, 15000);
    pending.set(id, (m) => {
      clearTimeout(timer);
      resolve(m);
    });
    send(msg);
  });
}

const wait = (ms) => new Promise((r) => setTimeout(r, ms));

const init = await call("initialize", {
  protocolVersion: version,
  capabilities: { roots: { listChanged: true } },
  clientInfo: { name: "mcp-schema-peer-recorder", version: "0.0.0" },
});
if (!init?.result) {
  console.error(`${out}: initialize failed`);
  child.kill();
  process.exit(1);
}
send({ jsonrpc: "2.0", method: "notifications/initialized" });
await wait(300);
for (const method of ["tools/list", "prompts/list", "resources/list", "resources/templates/list"]) await call(method, {});
for (const [method, params] of calls) await call(method, params);
await call("tools/call", { name: "no-such-tool", arguments: {} });
await call("ping");
await wait(300);
child.stdin.end();
child.kill();
writeFileSync(out, log.join("\n") + "\n");
console.error(`${out}: ${log.length} messages, server answered ${init.result.protocolVersion}`);
process.exit(0);
