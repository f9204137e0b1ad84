// The official TypeScript SDK v1 client (`@modelcontextprotocol/sdk`, pinned in package.json) over
// Streamable HTTP against `http_server`: a session (initialize, Mcp-Session-Id, its GET stream answered
// with an event stream),
// the tools listed and called, `count` with progress, a long `count` cancelled after its first
// progress with no progress after it, then DELETE. One line per step; exits non-zero on failure.
//
//   node http_session.mjs URL

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import assert from 'node:assert/strict';

const url = process.argv[2];
if (!url) {
  console.error('usage: node http_session.mjs URL');
  process.exit(2);
}
const client = new Client({ name: 'sdk-v1-http-client', version: '0.1.0' });
// Every GET the SDK makes, with what answered it: the session's GET stream is one.
const gets = [];
const seeGets = async (input, init) => {
  const response = await fetch(input, init);
  if ((init?.method ?? 'GET') === 'GET') gets.push(`${response.status} ${response.headers.get('content-type')}`);
  return response;
};
const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: seeGets });
await client.connect(transport);
console.log('protocol:', transport.protocolVersion, 'session:', transport.sessionId ? 'yes' : 'none');
assert.ok(transport.sessionId);

const tools = await client.listTools();
// The SDK opens it after `notifications/initialized`, beside the requests: give it up to 2 s.
for (let i = 0; i < 40 && gets.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
console.log('GET stream:', gets.join(', ') || 'none');
assert.ok(gets.some((g) => g.startsWith('200 text/event-stream')), `no GET stream opened: ${gets}`);
console.log('tools:', tools.tools.map((t) => t.name).join(', '));
assert.deepEqual(tools.tools.map((t) => t.name).sort(), ['convert', 'count']);
const converted = await client.callTool({ name: 'convert', arguments: { value: 1, from: 'miles', to: 'meters' } });
assert.deepEqual(converted.structuredContent, { value: 1609.344, unit: 'meters' });
const steps = [];
const counted = await client.callTool({ name: 'count', arguments: { to: 3, delayMs: 10 } }, undefined, { onprogress: (p) => steps.push(p.progress) });
console.log('count:', JSON.stringify(counted.structuredContent), 'progress:', steps.join(' '));
assert.deepEqual(steps, [1, 2, 3]);

const abort = new AbortController();
let late = 0;
let cancelled = false;
const long = client.callTool({ name: 'count', arguments: { to: 40, delayMs: 50 } }, undefined, {
  signal: abort.signal,
  onprogress: () => { if (cancelled) late += 1; else { cancelled = true; abort.abort('enough'); } },
});
await assert.rejects(long);
await new Promise((resolve) => setTimeout(resolve, 500));
console.log('cancelled: progress after the cancellation:', late);
assert.equal(late, 0);
await transport.terminateSession();
console.log('session ended');
await client.close();
console.log('ok');
