// The Skills extension's server in the TypeScript SDK v2 (`@modelcontextprotocol/server` 2.4.0, pinned in
// package.json): the SDK's catalog of a folder of skills (`loadSkills`, digests computed by the SDK) attached to
// an McpServer, served over stdio in both eras (`serveStdio`: 2026-07-28 through server/discover, 2025-11-25
// through initialize). The catalog declares `directoryRead`.
//
//   node ts-server.mjs SKILLS_FOLDER

import { McpServer } from '@modelcontextprotocol/server';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const [folder] = process.argv.slice(2);
if (folder === undefined) throw new Error('usage: node ts-server.mjs SKILLS_FOLDER');

// Warnings go to stderr: stdout is the protocol.
const catalog = await loadSkills(folder, { strict: true, onWarning: (w) => console.error(`skills: ${w.path}: ${w.message}`) });
serveStdio(() => {
  const server = new McpServer({ name: 'skills-typescript', version: '2.4.0' }, { capabilities: { resources: {} } });
  catalog.attach(server);
  return server;
});
