// The Skills extension's server in the TypeScript SDK v2 (`@modelcontextprotocol/server` 2.4.0, pinned in
// package.json): the SDK's catalog of a folder of skills (`loadSkills`, digests computed by the SDK) attached to
// an McpServer, in both eras (2026-07-28 through server/discover, 2025-11-25 through initialize). Over stdio
// (`serveStdio`), or with --http over Streamable HTTP (`createMcpHandler` on node:http at 127.0.0.1, a free
// port; the first line on stdout is the endpoint's URL). The catalog declares `directoryRead`.
//
//   node ts-server.mjs [--http] SKILLS_FOLDER

import { createServer } from 'node:http';
import { Readable } from 'node:stream';

import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

let argv = process.argv.slice(2);
const http = argv[0] === '--http';
if (http) argv = argv.slice(1);
const [folder] = argv;
if (folder === undefined) throw new Error('usage: node ts-server.mjs [--http] SKILLS_FOLDER');

// Warnings go to stderr: stdout is the protocol (or the URL).
const catalog = await loadSkills(folder, { strict: true, onWarning: (w) => console.error(`skills: ${w.path}: ${w.message}`) });
const factory = () => {
  const server = new McpServer({ name: 'skills-typescript', version: '2.4.0' }, { capabilities: { resources: {} } });
  catalog.attach(server);
  return server;
};

if (!http) {
  serveStdio(factory);
} else {
  // node:http in front of the SDK's web-standard handler: the request as a fetch Request, the Response streamed back.
  const handler = createMcpHandler(factory);
  const listener = createServer(async (req, res) => {
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Readable.toWeb(req);
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers, body, duplex: 'half' });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) res.end();
    else Readable.fromWeb(response.body).pipe(res);
  });
  listener.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${listener.address().port}/mcp`));
  process.on('SIGTERM', () => process.exit(0));
}
