// The 2026-07-28-only test server's tools, resource and prompt (see server26.mjs), shared by its
// stdio form (server26.mjs) and its HTTP form (server26http.mjs).

import { McpServer, acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';

export function build() {
const server = new McpServer({ name: 'bridge-test-server-2026', version: '1.0.0' }, { instructions: 'A 2026-07-28-only test server.', capabilities: { resources: { subscribe: true } } });
server.registerTool('echo', { description: 'Echoes its message', inputSchema: z.object({ message: z.string() }) }, async ({ message }) => ({
  content: [{ type: 'text', text: `Echo: ${message}` }],
}));
server.registerTool('add', { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) => ({
  content: [{ type: 'text', text: String(a + b) }],
}));
server.registerTool('confirm', { description: 'Asks the user to confirm', inputSchema: z.object({ what: z.string() }) }, async ({ what }, ctx) => {
  const schema = z.object({ ok: z.boolean() });
  const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', schema);
  if (answer === undefined) {
    return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: `Confirm ${what}?`, requestedSchema: schema }) } });
  }
  return { content: [{ type: 'text', text: answer.ok ? `confirmed ${what}` : `declined ${what}` }] };
});
server.registerResource('readme', 'test://readme', { mimeType: 'text/plain' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'A resource of the 2026-07-28 server.' }],
}));
server.registerPrompt('greet', { description: 'Greets a city', argsSchema: z.object({ city: z.string() }) }, async ({ city }) => ({
  messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${city}.` } }],
}));
return server;
}
