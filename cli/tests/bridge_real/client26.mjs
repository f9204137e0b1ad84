#!/usr/bin/env node
// A client that speaks only 2026-07-28 (the TypeScript SDK v2 `Client`, version pinned: its
// `server/discover` probe runs on a sibling process the SDK spawns and discards, then no
// `initialize`), for cli/tests/bridge_real.rs. Starts SERVER_COMMAND (`mcp-schema
// proxy --to 2025-11-25 -- <the reference server>`) over stdio and runs one step per line of
// output, then `N passed, N failed`; exit status 1 if a step failed.
//
//   node client26.mjs -- SERVER_COMMAND...

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const args = process.argv.slice(2);
// `--url URL`: over Streamable HTTP instead (cli/tests/bridge_http.rs).
const url = args[0] === '--url' ? new URL(args[1]) : undefined;
if (!url && (args[0] !== '--' || args.length < 2)) {
  console.error('usage: client26.mjs -- SERVER_COMMAND... | --url URL');
  process.exit(2);
}
const [command, ...commandArgs] = args.slice(1);

const client = new Client(
  { name: 'bridge-test-client-2026', version: '0.0.0' },
  { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
);
// The server's sampling request reaches this client as an input request of an InputRequiredResult.
let sampled = 0;
client.setRequestHandler('sampling/createMessage', async (request) => {
  sampled++;
  return { role: 'assistant', content: { type: 'text', text: `sampled: ${request.params.messages.length} message(s)` }, model: 'bridge-test-model', stopReason: 'endTurn' };
});

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
const text = (result) => result.content?.find((c) => c.type === 'text')?.text;

await step('connect (server/discover)', () => client.connect(url ? new StreamableHTTPClientTransport(url) : new StdioClientTransport({ command, args: commandArgs, stderr: 'inherit' })), () =>
  client.getNegotiatedProtocolVersion() === '2026-07-28' ? null : `negotiated ${client.getNegotiatedProtocolVersion()}`);
await step('server info', async () => client.getServerVersion(), (v) => (v?.name ? null : `no server info: ${JSON.stringify(v)}`));
await step('tools/list', () => client.listTools(), (r) =>
  ['echo', 'get-sum', 'trigger-sampling-request'].every((n) => r.tools.some((t) => t.name === n)) ? null : 'echo, get-sum or trigger-sampling-request missing');
await step('tools/call echo', () => client.callTool({ name: 'echo', arguments: { message: 'across versions ü' } }), (r) =>
  text(r) === 'Echo: across versions ü' ? null : `unexpected ${JSON.stringify(r)}`);
await step('tools/call get-sum', () => client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3.5 } }), (r) =>
  /5\.5/.test(text(r) ?? '') ? null : `unexpected ${JSON.stringify(r)}`);
await step('tools/call get-structured-content', () => client.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } }), (r) =>
  typeof r.structuredContent?.temperature === 'number' ? null : `no structured content in ${JSON.stringify(r)}`);
await step('tools/call trigger-sampling-request (server request as input request)', () =>
  client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hello', maxTokens: 10 } }), (r) =>
  sampled === 1 && JSON.stringify(r).includes('sampled: 1 message') ? null : `unexpected ${JSON.stringify(r).slice(0, 300)} after ${sampled} samplings`);
const uri = 'demo://resource/static/document/architecture.md';
await step('resources/list', () => client.listResources(), (r) => (r.resources.some((x) => x.uri === uri) ? null : `${uri} not listed`));
await step('resources/read', () => client.readResource({ uri }), (r) =>
  r.contents[0]?.uri === uri && r.contents[0].text?.length > 0 ? null : `unexpected ${JSON.stringify(r).slice(0, 200)}`);
await step('prompts/list', () => client.listPrompts(), (r) => (r.prompts.some((p) => p.name === 'args-prompt') ? null : 'args-prompt not listed'));
await step('prompts/get', () => client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lyon' } }), (r) =>
  JSON.stringify(r.messages).includes('Lyon') ? null : `unexpected ${JSON.stringify(r)}`);
await step('close', () => client.close(), () => null);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
