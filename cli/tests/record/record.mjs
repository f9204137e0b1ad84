#!/usr/bin/env node
// Records one MCP session with a server over stdio as JSONL: one line per message,
// `{"dir":"c2s"|"s2c","msg":...}`, in the order the client sent or received them.
//
//   node record.mjs --protocol 2025-06-18 --out session.jsonl -- node path/to/server.js stdio
//
// The client is scripted: initialize with the given protocolVersion, the initialized
// notification, then one request at a time (each waits for its response): tools/list,
// tools/call (echo, get-sum, get-tiny-image,
// get-structured-content, get-resource-links, get-annotated-message), prompts/list, prompts/get, resources/list,
// resources/read, resources/templates/list, completion/complete, ping, logging/setLevel,
// and one deliberately invalid request (tools/call without the required `params.name`).
// Requests the server sends are answered with a JSON-RPC error (the client declares no
// capabilities, so a conforming server sends none). Base64 blobs longer than
// --max-blob characters are replaced by a short valid base64 string, so captures stay small.

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

function parseArgs(argv) {
  const opts = { protocol: "2025-11-25", out: null, maxBlob: 4096, command: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      opts.command = argv.slice(i + 1);
      break;
    } else if (a === "--protocol") opts.protocol = argv[++i];
    else if (a === "--out") opts.out = argv[++i];
    else if (a === "--max-blob") opts.maxBlob = Number(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  if (!opts.out || opts.command.length === 0) {
    throw new Error("usage: record.mjs --protocol VERSION --out FILE [--max-blob N] -- SERVER COMMAND...");
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const lines = [];
const server = spawn(opts.command[0], opts.command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });

// A 1x1 transparent PNG, used in place of long base64 blobs.
const SMALL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

function trimBlobs(v) {
  if (Array.isArray(v)) return v.map(trimBlobs);
  if (v && typeof v === "object") {
    const out = {};
    for (const [k, x] of Object.entries(v)) {
      if ((k === "data" || k === "blob") && typeof x === "string" && x.length > opts.maxBlob) out[k] = SMALL_PNG;
      else out[k] = trimBlobs(x);
    }
    return out;
  }
  return v;
}

function record(dir, msg) {
  lines.push(JSON.stringify({ dir, msg: trimBlobs(msg) }));
}

const waiting = new Map(); // id -> resolve
let buffered = "";
server.stdout.setEncoding("utf8");
server.stdout.on("data", (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf("\n")) >= 0) {
    const line = buffered.slice(0, nl).trim();
    buffered = buffered.slice(nl + 1);
    if (!line) continue;
    const msg = JSON.parse(line);
    record("s2c", msg);
    if (msg.method !== undefined && msg.id !== undefined) {
      // A request from the server: this client supports none.
      send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
    } else if (msg.method === undefined && waiting.has(msg.id)) {
      const resolve = waiting.get(msg.id);
      waiting.delete(msg.id);
      resolve(msg);
    }
  }
});

function send(msg) {
  record("c2s", msg);
  server.stdin.write(JSON.stringify(msg) + "\n");
}

let nextId = 1;
function request(method, params) {
  const id = nextId++;
  const msg = { jsonrpc: "2.0", id, method };
  if (params !== undefined) msg.params = params;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no response to ${method} (id ${id})`)), 10000);
    waiting.set(id, (m) => {
      clearTimeout(timer);
      resolve(m);
    });
    send(msg);
  });
}

function notify(method, params) {
  const msg = { jsonrpc: "2.0", method };
  if (params !== undefined) msg.params = params;
  send(msg);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const init = await request("initialize", {
    protocolVersion: opts.protocol,
    capabilities: {},
    clientInfo: { name: "mcp-schema-recorder", version: "0.1.0" },
  });
  const negotiated = init.result?.protocolVersion;
  process.stderr.write(`proposed ${opts.protocol}, server answered ${negotiated}\n`);
  notify("notifications/initialized");
  const tools = await request("tools/list");
  const names = new Set((tools.result?.tools ?? []).map((t) => t.name));
  if (names.has("echo")) await request("tools/call", { name: "echo", arguments: { message: "hello \u2028 world" } });
  if (names.has("get-sum")) await request("tools/call", { name: "get-sum", arguments: { a: 2, b: 3.5 } });
  if (names.has("get-tiny-image")) await request("tools/call", { name: "get-tiny-image", arguments: {} });
  if (names.has("get-structured-content")) {
    await request("tools/call", { name: "get-structured-content", arguments: { location: "Chicago" } });
  }
  if (names.has("get-resource-links")) await request("tools/call", { name: "get-resource-links", arguments: { count: 2 } });
  if (names.has("get-annotated-message")) {
    await request("tools/call", { name: "get-annotated-message", arguments: { messageType: "success", includeImage: true } });
  }
  const prompts = await request("prompts/list");
  const promptNames = new Set((prompts.result?.prompts ?? []).map((p) => p.name));
  if (promptNames.has("simple-prompt")) await request("prompts/get", { name: "simple-prompt" });
  const resources = await request("resources/list");
  const first = resources.result?.resources?.[0];
  if (first) await request("resources/read", { uri: first.uri });
  await request("resources/templates/list");
  if (promptNames.has("completable-prompt")) {
    await request("completion/complete", {
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "department", value: "E" },
    });
  }
  await request("ping");
  await request("logging/setLevel", { level: "debug" });
  // Deliberately invalid: tools/call requires params.name.
  await request("tools/call", { arguments: { message: "no tool name" } });
  await sleep(300);
  server.stdin.end();
  server.kill();
  writeFileSync(opts.out, lines.join("\n") + "\n");
  process.stderr.write(`wrote ${lines.length} messages to ${opts.out}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e.stack || e}\n`);
  server.kill();
  process.exit(1);
});
