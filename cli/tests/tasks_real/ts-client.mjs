// The Tasks extension's TypeScript client (`@modelcontextprotocol/ext-tasks` 0.2.2) on the TypeScript SDK v2
// client (`@modelcontextprotocol/client` 2.4.0), pinned in package.json, against the server given on the command
// line over stdio (2026-07-28). The SDK client alone rejects `resultType: "task"`, so the extension's requests go
// through a small dispatcher on the same transport (`rawDispatch`): it sends the raw request with an id of its own
// and takes the answer with that id before the SDK sees it. Calls `add` (completes) and `greet` (asks for a name,
// answered through the extension's input handler and `tasks/update`); prints one line each.
//
//   node ts-client.mjs SERVER [ARGS...]

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createApplicationInputHandler, createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import assert from 'node:assert/strict';

const [command, ...args] = process.argv.slice(2);
const clientInfo = { name: 'ext-tasks-typescript', version: '0.1.0' };
const clientCapabilities = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** The SDK's transport, with raw requests of ids `raw-N` answered beside the SDK's own traffic. */
class Dispatching {
  constructor(inner) {
    this.inner = inner;
    this.pending = new Map();
    this.next = 0;
  }
  async start() {
    this.inner.onmessage = (message, extra) => {
      const waiting = message && typeof message.id === 'string' && !('method' in message) && this.pending.get(message.id);
      if (waiting) {
        this.pending.delete(message.id);
        waiting(message);
      } else {
        this.onmessage?.(message, extra);
      }
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e) => this.onerror?.(e);
    await this.inner.start();
  }
  send(message, options) {
    return this.inner.send(message, options);
  }
  close() {
    return this.inner.close();
  }
  get sessionId() {
    return this.inner.sessionId;
  }
  setProtocolVersion(v) {
    this.inner.setProtocolVersion?.(v);
  }
  dispatch = (request) =>
    new Promise((resolve, reject) => {
      const id = `raw-${++this.next}`;
      this.pending.set(id, resolve);
      this.inner.send({ ...request, jsonrpc: '2.0', id }).catch(reject);
    }).then((answer) => ({ ...answer, id: request.id }));
}

const transport = new Dispatching(new StdioClientTransport({ command, args }));
const client = new Client(clientInfo, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
await client.connect(transport);
assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');

const session = createTaskSessionFromClient(client, {
  endpointId: 'tasks-real',
  rawDispatch: transport.dispatch,
  v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo, clientCapabilities },
  onInputRequest: createApplicationInputHandler({
    elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
    sampling: async () => {
      throw new Error('no sampling in these sessions');
    },
    roots: async () => ({ roots: [] }),
  }),
});
try {
  const added = await session.callTool('add', { a: 2, b: 3 });
  const { outcome } = await added.settle();
  const sum = resultFromTaskOutcome(outcome);
  console.log('add:', JSON.stringify(sum.structuredContent ?? sum.content));
  const greeted = await session.callTool('greet', {});
  const greeting = resultFromTaskOutcome((await greeted.settle()).outcome);
  console.log('greet:', greeting.content[0].text);
  assert.match(greeting.content[0].text, /Ada/);
} finally {
  await session.close();
  await client.close();
}
