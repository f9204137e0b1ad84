#!/usr/bin/env node
// A 2026-07-28 client on the official TypeScript SDK v2 (`@modelcontextprotocol/client`), for
// `bench/record/sdks.sh`: it starts the server given on the command line over stdio with the
// protocol version pinned to 2026-07-28, answers the server's input requests (elicitation,
// sampling, roots) through its handlers, and walks through what `sdk_server.py` offers.
//
//   node sdk-client.mjs SERVER [ARGS...]

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node sdk-client.mjs SERVER [ARGS...]");
  process.exit(2);
}

const client = new Client(
  { name: "mcp-schema-bench-sdk-client", version: "0.1.0" },
  {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
    capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
  },
);
client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada", age: 36 } }));
client.setRequestHandler("sampling/createMessage", async () => ({
  role: "assistant",
  content: { type: "text", text: "Paris." },
  model: "bench-model-1",
  stopReason: "endTurn",
}));
client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///home/user/project", name: "project" }] }));

await client.connect(new StdioClientTransport({ command, args }));
const version = client.getNegotiatedProtocolVersion();
console.error("protocol:", version);
if (version !== "2026-07-28") throw new Error(`negotiated ${version}, wanted 2026-07-28`);

const step = async (what, f) => {
  try {
    const r = await f();
    console.error(what, "ok");
    return r;
  } catch (e) {
    console.error(what, "failed:", e.message);
  }
};
await step("tools/list", () => client.listTools());
await step("echo", () => client.callTool({ name: "echo", arguments: { message: "Hello, \u00e9t\u00e9 \u2603" } }));
await step("add", () => client.callTool({ name: "add", arguments: { numbers: [1.5, 2, 40] } }));
await step("count", () => client.callTool({ name: "count", arguments: { n: 3 } }, { onprogress: () => {} }));
await step("fail", () => client.callTool({ name: "fail", arguments: { reason: "on purpose" } }));
await step("greet", () => client.callTool({ name: "greet", arguments: {} }));
await step("ask", () => client.callTool({ name: "ask", arguments: { question: "Capital of France?" } }));
await step("where", () => client.callTool({ name: "where", arguments: {} }));
await step("bad arguments", () => client.callTool({ name: "add", arguments: { numbers: "many" } }));
await step("no such tool", () => client.callTool({ name: "no-such-tool", arguments: {} }));
await step("resources/list", () => client.listResources());
await step("templates/list", () => client.listResourceTemplates());
await step("read today", () => client.readResource({ uri: "note://today" }));
await step("read template", () => client.readResource({ uri: "note://friday" }));
await step("read missing", () => client.readResource({ uri: "nothing://here" }));
await step("prompts/list", () => client.listPrompts());
await step("prompt", () => client.getPrompt({ name: "summarize", arguments: { topic: "tides", words: "20" } }));
await step("complete", () =>
  client.complete({ ref: { type: "ref/resource", uri: "note://{day}" }, argument: { name: "day", value: "t" } }),
);
await client.close();
