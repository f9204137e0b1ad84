// The official TypeScript SDK v1 client (pinned in package.json) against a stdio server with a
// `count` tool: calls `count` asking for progress, calls `echo` while it runs (at its third
// progress step), and once `echo` is answered, aborts `count` (the SDK writes
// `notifications/cancelled`). Waits a little for anything late, then prints one JSON line of what
// it saw. The server's recording is what tests/stdio_cancel.rs checks.
//
//   node cancel.mjs SERVER [ARGS...]

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node cancel.mjs SERVER [ARGS...]');
  process.exit(2);
}

const client = new Client({ name: 'stdio-cancel-test', version: '0.1.0' });
await client.connect(new StdioClientTransport({ command, args }));

const abort = new AbortController();
const seen = { steps: [], echo: null, echoAtStep: null, stepsAfterAbort: 0, outcome: null };
let echoCall = null;
const counting = client.callTool({ name: 'count', arguments: { to: 40, delayMs: 50 } }, CallToolResultSchema, {
  signal: abort.signal,
  timeout: 60000,
  onprogress: (p) => {
    if (abort.signal.aborted) seen.stepsAfterAbort += 1;
    seen.steps.push(p.progress);
    if (p.progress === 3) {
      echoCall = client.callTool({ name: 'echo', arguments: { text: 'meanwhile' } }).then((r) => {
        seen.echo = r.content[0].text;
        seen.echoAtStep = seen.steps.at(-1);
        abort.abort('enough counting');
      });
    }
  },
});
try {
  await counting;
  seen.outcome = 'finished';
} catch (e) {
  seen.outcome = abort.signal.aborted ? 'aborted' : `failed: ${e}`;
}
await echoCall;
// Anything the server still sent for `count` would arrive in this time (its steps are 50 ms).
await new Promise((resolve) => setTimeout(resolve, 500));
console.log(JSON.stringify(seen));
await client.close();
