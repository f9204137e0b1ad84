#!/usr/bin/env node
// Records one stdio session with any MCP server, for `peers.sh`: the client proposes
// VERSION, lists what the server offers, makes the calls in CALLS.json (an array of
// [method, params]), calls a tool that does not exist, pings, and writes every message as
// JSONL, `{"dir":"c2s"|"s2c","msg":MESSAGE}`, server lines byte for byte.
//
//   node peer.mjs VERSION OUT.jsonl CALLS.json -- SERVER_COMMAND...

import { readFileSync } from "node:fs";
import { connect } from "../../../bench/record/stdio-client.mjs";

const args = process.argv.slice(2);
const dashes = args.indexOf("--");
if (dashes !== 3 || dashes === args.length - 1) {
  console.error("usage: peer.mjs VERSION OUT.jsonl CALLS.json -- SERVER_COMMAND...");
  process.exit(2);
}
const [version, out, callsFile] = args;
const calls = JSON.parse(readFileSync(callsFile, "utf8"));

// The server's own requests: roots and ping are answered, anything else is refused.
const client = connect(
  args.slice(dashes + 1),
  (msg) => ({ "roots/list": { roots: [{ uri: "file:///tmp", name: "tmp" }] }, ping: {} })[msg.method] ?? null,
  { timeoutMs: 15000 },
);

// A request the server does not answer is noted and passed over.
const call = (method, params) =>
  client.call(method, params).catch((e) => {
    console.error(`${out}: ${e.message}`);
    return null;
  });
const wait = (ms) => new Promise((r) => setTimeout(r, ms));

const init = await call("initialize", {
  protocolVersion: version,
  capabilities: { roots: { listChanged: true } },
  clientInfo: { name: "mcp-schema-peer-recorder", version: "0.0.0" },
});
if (!init?.result) {
  console.error(`${out}: initialize failed`);
  client.kill();
  process.exit(1);
}
client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
await wait(300);
// Only what the server declared: using an undeclared capability is the client's error
// (`session.capabilities.server`).
const declared = init.result.capabilities ?? {};
const listings = { tools: ["tools/list"], prompts: ["prompts/list"], resources: ["resources/list", "resources/templates/list"] };
for (const [capability, methods] of Object.entries(listings)) {
  if (declared[capability]) for (const method of methods) await call(method, {});
}
for (const [method, params] of calls) await call(method, params);
await call("tools/call", { name: "no-such-tool", arguments: {} });
await call("ping");
await wait(300);
const n = client.close(out);
console.error(`${out}: ${n} messages, server answered ${init.result.protocolVersion}`);
process.exit(0);
