// A 2026-07-28 client on the official TypeScript SDK v2 (`@modelcontextprotocol/client`, pinned in
// package.json). Starts the server given on the command line over stdio with the protocol version
// pinned to 2026-07-28 (no fallback to `initialize`), then lists and calls the tools, reads the
// resources and gets the prompts. Prints one line per step; exits non-zero on any failure.
//
//   node client.mjs SERVER [ARGS...]

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import assert from 'node:assert/strict';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node client.mjs SERVER [ARGS...]');
  process.exit(2);
}

const client = new Client(
  { name: 'sdk-client-typescript', version: '0.1.0' },
  { versionNegotiation: { mode: { pin: '2026-07-28' } } },
);
await client.connect(new StdioClientTransport({ command, args }));
console.log('protocol:', client.getNegotiatedProtocolVersion());
assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');

const tools = await client.listTools();
console.log('tools:', tools.tools.map((t) => t.name).join(', '));
const echo = await client.callTool({ name: 'echo', arguments: { message: 'hello from typescript' } });
console.log('echo:', echo.content[0].text);
const weather = await client.callTool({ name: 'get-structured-content', arguments: { location: 'Oslo' } });
console.log('structured:', JSON.stringify(weather.structuredContent));
assert.deepEqual(weather.structuredContent, { temperature: 21.5, conditions: 'Sunny' });
const links = await client.callTool({ name: 'get-resource-links', arguments: { count: 2 } });
console.log('content types:', links.content.map((c) => c.type).join(', '));
const resources = await client.listResources();
for (const resource of resources.resources) {
  const read = await client.readResource({ uri: resource.uri });
  console.log('read:', resource.uri, read.contents[0].text.length, 'characters');
}
const templates = await client.listResourceTemplates();
console.log('templates:', templates.resourceTemplates.map((t) => t.uriTemplate).join(', '));
const prompts = await client.listPrompts();
console.log('prompts:', prompts.prompts.map((p) => p.name).join(', '));
const prompt = await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Oslo' } });
console.log('prompt:', prompt.messages[0].content.text);
await client.close();
