#!/usr/bin/env node
// A real MCP host for cli/tests/proxy_real.rs: the TypeScript SDK's `Client` starts
// SERVER_COMMAND (which is `mcp-schema proxy ... -- <the reference server>`) over stdio,
// initializes, lists and calls tools, reads a resource, gets a prompt, pings, and closes.
// It checks the answers it gets and prints one line per step, then `N passed, N failed`;
// the exit status is 1 if a step failed.
//
//   node client.mjs -- SERVER_COMMAND...

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const args = process.argv.slice(2);
if (args[0] !== "--" || args.length < 2) {
  console.error("usage: client.mjs -- SERVER_COMMAND...");
  process.exit(2);
}
const [command, ...commandArgs] = args.slice(1);

// The proxy's findings and the server's own stderr go to this process's stderr.
const transport = new StdioClientTransport({ command, args: commandArgs, stderr: "inherit" });
const client = new Client({ name: "mcp-schema-proxy-test", version: "0.0.0" });

let passed = 0;
let failed = 0;
async function step(name, run, expect) {
  try {
    const answer = await run();
    const problem = expect(answer);
    if (problem) throw new Error(problem);
    passed++;
    console.log(`ok ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.message}`);
  }
}
const text = (result) => result.content?.find((c) => c.type === "text")?.text;

await step("initialize", () => client.connect(transport), () =>
  client.getServerVersion()?.name ? null : "no serverInfo after initialize");
await step("tools/list", () => client.listTools(), (r) =>
  ["echo", "get-sum"].every((n) => r.tools.some((t) => t.name === n)) ? null : "echo or get-sum missing");
await step("tools/call echo", () => client.callTool({ name: "echo", arguments: { message: "through the proxy ü \u2028 ok" } }), (r) =>
  text(r) === "Echo: through the proxy ü \u2028 ok" ? null : `unexpected answer ${JSON.stringify(r)}`);
await step("tools/call get-sum", () => client.callTool({ name: "get-sum", arguments: { a: 2, b: 3.5 } }), (r) =>
  /5\.5/.test(text(r) ?? "") ? null : `unexpected answer ${JSON.stringify(r)}`);
await step("tools/call get-structured-content", () => client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } }), (r) =>
  typeof r.structuredContent?.temperature === "number" ? null : `no structured content in ${JSON.stringify(r)}`);
const uri = "demo://resource/static/document/architecture.md";
await step("resources/list", () => client.listResources(), (r) =>
  r.resources.some((x) => x.uri === uri) ? null : `${uri} not listed`);
await step("resources/read", () => client.readResource({ uri }), (r) =>
  r.contents[0]?.uri === uri && r.contents[0].text?.length > 0 ? null : `unexpected contents ${JSON.stringify(r).slice(0, 200)}`);
await step("prompts/list", () => client.listPrompts(), (r) =>
  r.prompts.some((p) => p.name === "simple-prompt") ? null : "simple-prompt not listed");
await step("prompts/get", () => client.getPrompt({ name: "args-prompt", arguments: { city: "Lyon" } }), (r) =>
  JSON.stringify(r.messages).includes("Lyon") ? null : `the prompt does not mention the city: ${JSON.stringify(r)}`);
await step("ping", () => client.ping(), () => null);
await step("close", () => client.close(), () => null);

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
