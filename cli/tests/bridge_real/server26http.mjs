#!/usr/bin/env node
// The 2026-07-28-only test server (server26-build.mjs) over Streamable HTTP, for
// cli/tests/bridge_http.rs: the SDK v2's `createMcpHandler` with `legacy: 'reject'` (stateless
// POSTs with the per-request `_meta`; an `initialize` is refused) on a node:http server at
// 127.0.0.1 on a free port, printed as `listening PORT`.

import http from 'node:http';
import { Readable } from 'node:stream';

import { createMcpHandler } from '@modelcontextprotocol/server';

import { build } from './server26-build.mjs';

const handler = createMcpHandler(build, { legacy: 'reject' });

const server = http.createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = ['GET', 'HEAD'].includes(req.method) ? undefined : Buffer.concat(chunks);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    const answer = await handler.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (answer.body) Readable.fromWeb(answer.body).pipe(res);
    else res.end();
  } catch (e) {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(e));
  }
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
