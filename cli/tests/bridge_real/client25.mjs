#!/usr/bin/env node
// A client that speaks up to 2025-11-25 (the TypeScript SDK 1.x `Client`), for
// cli/tests/bridge_real.rs. Starts SERVER_COMMAND (`mcp-schema proxy --to 2026-07-28 -- <a
// 2026-07-28-only server>`) over stdio and runs one step per line of output, then
// `N passed, N failed`; exit status 1 if a step failed.
//
//   node client25.mjs -- SERVER_COMMAND...

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';

const args = process.argv.slice(2);
// `--url URL`: over Streamable HTTP instead (cli/tests/bridge_http.rs).
const url = args[0] === '--url' ? new URL(args[1]) : undefined;
if (!url && (args[0] !== '--' || args.length < 2)) {
  console.error('usage: client25.mjs -- SERVER_COMMAND... | --url URL');
  process.exit(2);
}
const [command, ...commandArgs] = args.slice(1);

const transport = url ? new StreamableHTTPClientTransport(url) : new StdioClientTransport({ command, args: commandArgs, stderr: 'inherit' });
const client = new Client({ name: 'bridge-test-client-2025', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } } });
// The server's InputRequiredResult reaches this client as an `elicitation/create` request.
let elicited = 0;
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  elicited++;
  return { action: 'accept', content: { ok: request.params.message.includes('launch') } };
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

await step('initialize', () => client.connect(transport), () => {
  const info = client.getServerVersion();
  return info?.name === 'bridge-test-server-2026' ? null : `serverInfo ${JSON.stringify(info)}`;
});
await step('negotiated 2025-11-25', async () => client.transport?.protocolVersion ?? client.getNegotiatedProtocolVersion?.(), (v) =>
  v === undefined || v === '2025-11-25' ? null : `negotiated ${v}`);
await step('instructions', async () => client.getInstructions(), (i) => (i?.includes('2026-07-28-only') ? null : `instructions ${i}`));
await step('tools/list', () => client.listTools(), (r) =>
  ['echo', 'add', 'confirm'].every((n) => r.tools.some((t) => t.name === n)) ? null : `tools ${JSON.stringify(r.tools.map((t) => t.name))}`);
await step('tools/call echo', () => client.callTool({ name: 'echo', arguments: { message: 'across versions ü' } }), (r) =>
  text(r) === 'Echo: across versions ü' ? null : `unexpected ${JSON.stringify(r)}`);
await step('tools/call add', () => client.callTool({ name: 'add', arguments: { a: 2, b: 3.5 } }), (r) => (text(r) === '5.5' ? null : `unexpected ${JSON.stringify(r)}`));
await step('tools/call confirm (input required, as elicitation)', () => client.callTool({ name: 'confirm', arguments: { what: 'launch' } }), (r) =>
  text(r) === 'confirmed launch' && elicited === 1 ? null : `unexpected ${JSON.stringify(r)} after ${elicited} elicitations`);
await step('resources/list', () => client.listResources(), (r) => (r.resources.some((x) => x.uri === 'test://readme') ? null : 'test://readme not listed'));
await step('resources/read', () => client.readResource({ uri: 'test://readme' }), (r) =>
  r.contents[0]?.text?.includes('2026-07-28') ? null : `unexpected ${JSON.stringify(r)}`);
await step('prompts/list', () => client.listPrompts(), (r) => (r.prompts.some((p) => p.name === 'greet') ? null : 'greet not listed'));
await step('prompts/get', () => client.getPrompt({ name: 'greet', arguments: { city: 'Lyon' } }), (r) =>
  JSON.stringify(r.messages).includes('Lyon') ? null : `unexpected ${JSON.stringify(r)}`);
await step('ping (answered by the bridge)', () => client.ping(), () => null);
// 2026-07-28 has no resources/subscribe (subscriptions are a stream there): the bridge refuses it.
await step('resources/subscribe refused', () => client.request({ method: 'resources/subscribe', params: { uri: 'test://readme' } }, EmptyResultSchema).then(
  (r) => ({ unexpected: r }),
  (e) => ({ error: e }),
), (r) => (r.error && r.error.code === -32601 && /CONVERSIONS\.md/.test(r.error.message) ? null : `not refused: ${JSON.stringify(r)}`));
await step('close', () => client.close(), () => null);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
