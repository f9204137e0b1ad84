#!/usr/bin/env node
// Records the benchmark's session corpora: one scripted MCP client session with a
// server spoken to over stdio, written as JSONL with one `{"dir":"c2s"|"s2c","msg":MESSAGE}`
// object per message. Server lines are kept byte for byte (key order and number
// spelling as the server wrote them); client lines are what this script sent.
//
//   node record.mjs VERSION OUT.jsonl SERVER_COMMAND...
//
// The script plays a client that declares roots, sampling and (from 2025-06-18 on)
// elicitation, answers the server's requests, and walks through the usual calls.

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

const [version, out, ...command] = process.argv.slice(2);
if (!version || !out || command.length === 0) {
  console.error("usage: record.mjs VERSION OUT.jsonl SERVER_COMMAND...");
  process.exit(2);
}

const log = [];
const child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "ignore"] });
const pending = new Map();
let nextId = 0;
let rest = "";

function write(obj) {
  const text = JSON.stringify(obj);
  log.push(`{"dir":"c2s","msg":${text}}`);
  child.stdin.write(text + "\n");
}

function answerServer(msg) {
  switch (msg.method) {
    case "roots/list":
      return { roots: [{ uri: "file:///home/user/project", name: "project" }] };
    case "sampling/createMessage":
      return {
        role: "assistant",
        content: { type: "text", text: "The capital of France is Paris." },
        model: "bench-model-1",
        stopReason: "endTurn",
      };
    case "elicitation/create":
      return { action: "accept", content: { name: "Ada", age: 36, subscribe: true } };
    case "ping":
      return {};
    default:
      return null;
  }
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
    if (msg.method !== undefined && msg.id !== undefined) {
      const result = answerServer(msg);
      if (result) write({ jsonrpc: "2.0", id: msg.id, result });
      else write({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } });
    } else if (msg.method === undefined && pending.has(msg.id)) {
      pending.get(msg.id)(msg);
      pending.delete(msg.id);
    }
  }
});

function call(method, params, meta) {
  const id = ++nextId;
  const msg = { jsonrpc: "2.0", id, method };
  if (params !== undefined) msg.params = meta ? { ...params, _meta: meta } : params;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out: ${method}`)), 20000);
    pending.set(id, (m) => {
      clearTimeout(timer);
      resolve(m);
    });
    write(msg);
  });
}

const tool = (name, args, meta) => call("tools/call", { name, arguments: args }, meta);
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
const atLeast = (v) => version >= v;

async function script() {
  const capabilities = { roots: { listChanged: true }, sampling: {} };
  if (atLeast("2025-06-18")) capabilities.elicitation = {};
  const init = await call("initialize", {
    protocolVersion: version,
    capabilities,
    clientInfo: { name: "mcp-schema-bench-recorder", version: "0.0.0" },
  });
  if (init.result?.protocolVersion !== version) {
    throw new Error(`server answered protocol ${init.result?.protocolVersion}, wanted ${version}`);
  }
  write({ jsonrpc: "2.0", method: "notifications/initialized" });
  await wait(100);
  const tools = (await call("tools/list", {})).result.tools.map((t) => t.name);
  const has = (n) => tools.includes(n);
  await call("logging/setLevel", { level: "debug" });
  await tool("echo", { message: "Hello, \u00e9t\u00e9 \u2603 \"quoted\" \\ back\nslash" });
  await tool("get-sum", { a: 40, b: 2.5 });
  await tool("get-tiny-image", {});
  await tool("get-annotated-message", { messageType: "error", includeImage: true });
  if (has("get-structured-content")) await tool("get-structured-content", { location: "New York" });
  if (has("get-resource-links")) await tool("get-resource-links", { count: 4 });
  if (has("get-resource-reference")) await tool("get-resource-reference", { resourceType: "Blob", resourceId: 3 });
  if (has("trigger-long-running-operation")) {
    await tool("trigger-long-running-operation", { duration: 1, steps: 4 }, { progressToken: "progress-1" });
  }
  if (has("trigger-sampling-request")) await tool("trigger-sampling-request", { prompt: "Capital of France?", maxTokens: 50 });
  if (has("trigger-elicitation-request")) await tool("trigger-elicitation-request", {});
  await tool("no-such-tool", {});
  await call("prompts/list", {});
  await call("prompts/get", { name: "simple-prompt" });
  await call("prompts/get", { name: "args-prompt", arguments: { city: "Lyon", state: "ARA" } });
  await call("prompts/get", { name: "resource-prompt", arguments: { resourceType: "Text", resourceId: "2" } });
  await call("completion/complete", {
    ref: { type: "ref/prompt", name: "completable-prompt" },
    argument: { name: "department", value: "En" },
  });
  const resources = (await call("resources/list", {})).result.resources;
  for (const r of resources.slice(0, 4)) await call("resources/read", { uri: r.uri });
  await call("resources/read", { uri: "demo://resource/dynamic/blob/7" });
  await call("resources/templates/list", {});
  await call("resources/subscribe", { uri: "demo://resource/dynamic/text/1" });
  await call("resources/unsubscribe", { uri: "demo://resource/dynamic/text/1" });
  write({ jsonrpc: "2.0", method: "notifications/roots/list_changed" });
  await wait(200);
  await call("ping");
  await wait(200);
}

script()
  .then(() => {
    child.stdin.end();
    child.kill();
    writeFileSync(out, log.join("\n") + "\n");
    console.error(`${out}: ${log.length} messages`);
    process.exit(0);
  })
  .catch((e) => {
    console.error(String(e.stack || e));
    child.kill();
    process.exit(1);
  });
