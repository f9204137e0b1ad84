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

import { finish, openSession, plainAnswer, promptsAndCompletion, readResources, simpleTools, scriptArgs, wait } from "./script.mjs";
import { connect } from "./stdio-client.mjs";

const { version, out, command } = scriptArgs("record.mjs");
const client = connect(command, plainAnswer);
const write = client.send;
const call = (method, params, meta) => client.call(method, meta ? { ...params, _meta: meta } : params);

const tool = (name, args, meta) => call("tools/call", { name, arguments: args }, meta);
const atLeast = (v) => version >= v;

async function script() {
  const capabilities = { roots: { listChanged: true }, sampling: {} };
  if (atLeast("2025-06-18")) capabilities.elicitation = {};
  const has = await openSession(client, version, capabilities);
  await simpleTools(client, has);
  if (has("get-resource-links")) await tool("get-resource-links", { count: 4 });
  if (has("get-resource-reference")) await tool("get-resource-reference", { resourceType: "Blob", resourceId: 3 });
  if (has("trigger-long-running-operation")) {
    await tool("trigger-long-running-operation", { duration: 1, steps: 4 }, { progressToken: "progress-1" });
  }
  if (has("trigger-sampling-request")) await tool("trigger-sampling-request", { prompt: "Capital of France?", maxTokens: 50 });
  if (has("trigger-elicitation-request")) await tool("trigger-elicitation-request", {});
  await tool("no-such-tool", {});
  await promptsAndCompletion(client);
  await readResources(client, 4);
  await call("resources/subscribe", { uri: "demo://resource/dynamic/text/1" });
  await call("resources/unsubscribe", { uri: "demo://resource/dynamic/text/1" });
  write({ jsonrpc: "2.0", method: "notifications/roots/list_changed" });
  await wait(200);
  await call("ping");
  await wait(200);
}

finish(script, client, out);
