#!/usr/bin/env node
// Records a varied session with the reference server (`@modelcontextprotocol/server-everything`):
// the walk of `record.mjs` plus, from 2025-11-25 on, tasks in both directions. The client
// declares task support for sampling and elicitation, so the server's `-async` tools send it
// task-augmented requests that it runs as tasks of its own and the server polls with
// `tasks/get` and `tasks/result`; the client in turn calls the server's task tool with `task`,
// polls it, lists tasks and cancels one. Also: URL elicitation, log messages, resource update
// notifications, a compressed resource from a `data:` URI. Same JSONL as `record.mjs`.
//
//   node tasks.mjs VERSION OUT.jsonl SERVER_COMMAND...

import { finish, openSession, plainAnswer, promptsAndCompletion, readResources, simpleTools, scriptArgs, wait } from "./script.mjs";
import { connect } from "./stdio-client.mjs";

const { version, out, command } = scriptArgs("tasks.mjs");
const atLeast = (v) => version >= v;

// Fixed timestamps and ids keep the client's side of the recording the same on every run.
const CREATED = "2026-11-23T12:00:00.000Z";
const clientTasks = new Map();
let clientTaskCount = 0;

// The client as a task executor: a task-augmented request is answered with the task, which
// completes at the second `tasks/get`.
function answerServer(msg) {
  const task = msg.params?.task;
  if (task && (msg.method === "sampling/createMessage" || msg.method === "elicitation/create")) {
    const taskId = `client-task-${++clientTaskCount}`;
    const { task: _, ...params } = msg.params;
    clientTasks.set(taskId, { polls: 0, ttl: task.ttl ?? null, result: plainAnswer({ ...msg, params }) });
    return { task: { taskId, status: "working", createdAt: CREATED, lastUpdatedAt: CREATED, ttl: task.ttl ?? null, pollInterval: 200 } };
  }
  const known = clientTasks.get(msg.params?.taskId);
  switch (msg.method) {
    case "tasks/get": {
      if (!known) return null;
      known.polls += 1;
      const status = known.polls >= 2 ? "completed" : "working";
      const state = { taskId: msg.params.taskId, status, createdAt: CREATED, lastUpdatedAt: CREATED, ttl: known.ttl, pollInterval: 200 };
      if (status === "completed") client.send({ jsonrpc: "2.0", method: "notifications/tasks/status", params: state });
      return state;
    }
    case "tasks/result":
      if (!known) return null;
      return { ...known.result, _meta: { "io.modelcontextprotocol/related-task": { taskId: msg.params.taskId } } };
    case "tasks/list":
      return {
        tasks: [...clientTasks.keys()].map((taskId) => ({ taskId, status: "completed", createdAt: CREATED, lastUpdatedAt: CREATED, ttl: null })),
      };
    default:
      return plainAnswer(msg);
  }
}

const client = connect(command, answerServer, { timeoutMs: 30000 });
const write = client.send;
const call = (method, params, meta) => client.call(method, meta ? { ...params, _meta: meta } : params);
const tool = (name, args, meta) => call("tools/call", { name, arguments: args }, meta);

// Polls a task of the server's until it ends; while it waits for input, `tasks/result` is where
// the server's related requests arrive.
async function runServerTask(name, args) {
  const created = await call("tools/call", { name, arguments: args, task: { ttl: 60000 } });
  const taskId = created.result?.task?.taskId;
  if (!taskId) throw new Error(`${name}: no task in ${JSON.stringify(created)}`);
  for (let i = 0; i < 40; i++) {
    await wait(400);
    const status = (await call("tasks/get", { taskId })).result?.status;
    if (status === "input_required" || status === "completed") break;
    if (status === "failed" || status === "cancelled") return taskId;
  }
  await call("tasks/result", { taskId });
  return taskId;
}

async function script() {
  const capabilities = { roots: { listChanged: true }, sampling: {} };
  if (atLeast("2025-06-18")) capabilities.elicitation = {};
  if (atLeast("2025-11-25")) {
    capabilities.elicitation = { form: {}, url: {} };
    capabilities.tasks = { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } };
  }
  const has = await openSession(client, version, capabilities);
  await simpleTools(client, has);
  // The server sends `resource_link` content, which 2025-06-18 introduced, whatever the version.
  if (has("get-resource-links") && atLeast("2025-06-18")) await tool("get-resource-links", { count: 3 });
  if (has("get-resource-reference")) await tool("get-resource-reference", { resourceType: "Blob", resourceId: 3 });
  if (has("get-roots-list")) await tool("get-roots-list", {});
  if (has("trigger-long-running-operation")) {
    await tool("trigger-long-running-operation", { duration: 1, steps: 3 }, { progressToken: "progress-1" });
  }
  if (has("trigger-sampling-request")) await tool("trigger-sampling-request", { prompt: "Capital of France?", maxTokens: 50 });
  // Its form uses multi-select enums, which 2025-11-25 introduced, whatever the version.
  if (has("trigger-elicitation-request") && atLeast("2025-11-25")) await tool("trigger-elicitation-request", {});
  if (atLeast("2025-11-25")) {
    if (has("trigger-url-elicitation")) {
      await tool("trigger-url-elicitation", { url: "https://example.com/consent", elicitationId: "consent-1" });
      await tool("trigger-url-elicitation", { url: "https://example.com/consent", elicitationId: "consent-2", errorPath: true });
    }
    if (has("simulate-research-query")) {
      await runServerTask("simulate-research-query", { topic: "tide tables" });
      await runServerTask("simulate-research-query", { topic: "tide tables", ambiguous: true });
      const created = await call("tools/call", { name: "simulate-research-query", arguments: { topic: "lighthouses" }, task: { ttl: 60000 } });
      await call("tasks/list", {});
      const taskId = created.result?.task?.taskId;
      if (taskId) {
        await call("tasks/get", { taskId });
        await call("tasks/cancel", { taskId });
        await call("tasks/get", { taskId });
      }
      await call("tasks/get", { taskId: "no-such-task" });
    }
    if (has("trigger-sampling-request-async")) await tool("trigger-sampling-request-async", { prompt: "Capital of France?", maxTokens: 50 });
    if (has("trigger-elicitation-request-async")) await tool("trigger-elicitation-request-async", {});
  }
  if (has("gzip-file-as-resource")) {
    const data = "data:text/plain;base64," + Buffer.from("bench line\n".repeat(20)).toString("base64");
    await tool("gzip-file-as-resource", { name: "lines.txt.gz", data, outputType: "resource" });
  }
  await tool("no-such-tool", {});
  await promptsAndCompletion(client);
  await readResources(client, 2);
  await call("resources/subscribe", { uri: "demo://resource/dynamic/text/1" });
  if (has("toggle-subscriber-updates")) await tool("toggle-subscriber-updates", {});
  if (has("toggle-simulated-logging")) await tool("toggle-simulated-logging", {});
  await wait(5500);
  if (has("toggle-simulated-logging")) await tool("toggle-simulated-logging", {});
  if (has("toggle-subscriber-updates")) await tool("toggle-subscriber-updates", {});
  await call("resources/unsubscribe", { uri: "demo://resource/dynamic/text/1" });
  write({ jsonrpc: "2.0", method: "notifications/roots/list_changed" });
  await wait(200);
  // A request cancelled while it runs (its id is outside the range `call` uses).
  write({
    jsonrpc: "2.0",
    id: 1000,
    method: "tools/call",
    params: { name: "trigger-long-running-operation", arguments: { duration: 4, steps: 4 }, _meta: { progressToken: "progress-2" } },
  });
  await wait(1500);
  write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1000, reason: "no longer needed" } });
  await wait(200);
  await call("ping");
  await wait(200);
}

finish(script, client, out);
