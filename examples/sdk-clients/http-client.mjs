// The official TypeScript SDK v2 client (`@modelcontextprotocol/client`, pinned in package.json) over
// Streamable HTTP against `http_server` (the two tools): `legacy` is the session era (initialize,
// Mcp-Session-Id, the GET stream, DELETE at the end), `2026-07-28` sends each request on its own.
// Lists the tools, calls `convert`, calls `count` with progress, then cancels a long `count` after
// its first progress and checks that no progress comes after the cancellation. One line per step;
// exits non-zero on any failure.
//
//   node http-client.mjs URL legacy|2026-07-28

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import assert from 'node:assert/strict';

const [url, era] = process.argv.slice(2);
if (!url || !era) {
  console.error('usage: node http-client.mjs URL legacy|2026-07-28');
  process.exit(2);
}
const mode = era === 'legacy' ? 'legacy' : { pin: era };
const client = new Client({ name: 'sdk-http-client-typescript', version: '0.1.0' }, { versionNegotiation: { mode } });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);
console.log('protocol:', client.getNegotiatedProtocolVersion());
console.log('session:', transport.sessionId ? 'yes' : 'none');
assert.equal(Boolean(transport.sessionId), era === 'legacy');

const tools = await client.listTools();
console.log('tools:', tools.tools.map((t) => t.name).join(', '));
assert.deepEqual(tools.tools.map((t) => t.name).sort(), ['convert', 'count']);
const converted = await client.callTool({ name: 'convert', arguments: { value: 1, from: 'miles', to: 'meters' } });
console.log('convert:', JSON.stringify(converted.structuredContent));
assert.deepEqual(converted.structuredContent, { value: 1609.344, unit: 'meters' });

const steps = [];
const counted = await client.callTool({ name: 'count', arguments: { to: 3, delayMs: 10 } }, { onprogress: (p) => steps.push(p.progress) });
console.log('count:', JSON.stringify(counted.structuredContent), 'progress:', steps.join(' '));
assert.deepEqual(counted.structuredContent, { counted: 3 });
assert.deepEqual(steps, [1, 2, 3]);

// Cancelled after the first progress: the call rejects, and nothing about it arrives afterwards.
const abort = new AbortController();
let late = 0;
let cancelled = false;
const long = client.callTool({ name: 'count', arguments: { to: 40, delayMs: 50 } }, {
  signal: abort.signal,
  onprogress: () => { if (cancelled) late += 1; else { cancelled = true; abort.abort('enough'); } },
});
await assert.rejects(long);
await new Promise((resolve) => setTimeout(resolve, 500));
console.log('cancelled: progress after the cancellation:', late);
assert.equal(late, 0);

// The server still answers on the same connection.
const again = await client.callTool({ name: 'convert', arguments: { value: 2, from: 'feet', to: 'feet' } });
assert.deepEqual(again.structuredContent, { value: 2, unit: 'feet' });
if (era === 'legacy') {
  await transport.terminateSession();
  console.log('session ended');
}
await client.close();
console.log('ok');
