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

import { connect } from "./stdio-client.mjs";

const [version, out, ...command] = process.argv.slice(2);
if (!version || !out || command.length === 0) {
  console.error("usage: record.mjs VERSION OUT.jsonl SERVER_COMMAND...");
  process.exit(2);
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

const client = connect(command, answerServer);
const write = client.send;
const call = (method, params, meta) => client.call(method, meta ? { ...params, _meta: meta } : params);

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
    console.error(`${out}: ${client.close(out)} messages`);
    process.exit(0);
  })
  .catch((e) => {
    console.error(String(e.stack || e));
    client.kill();
    process.exit(1);
  });
