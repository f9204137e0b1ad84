// The plumbing of a scripted MCP client over stdio, shared by the session recorders
// (`bench/record/record.mjs`, `cli/tests/record/peer.mjs`): it starts the server, logs every
// message as JSONL (`{"dir":"c2s"|"s2c","msg":MESSAGE}`, server lines byte for byte, client
// lines as sent), answers the server's requests, and matches responses to requests.

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

/// Starts `command`. `answer(request)` gives the result for a request from the server, or
/// null to refuse it with "Method not found". A request without a response after
/// `timeoutMs` rejects.
export function connect(command, answer, { timeoutMs = 20000 } = {}) {
  const log = [];
  const pending = new Map();
  let nextId = 0;
  let rest = "";
  const child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "ignore"] });

  function send(msg) {
    const text = JSON.stringify(msg);
    log.push(`{"dir":"c2s","msg":${text}}`);
    child.stdin.write(text + "\n");
  }

  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    rest += chunk;
    let nl;
    while ((nl = rest.indexOf("\n")) >= 0) {
      const line = rest.slice(0, nl).replace(/\r$/, "");
      rest = rest.slice(nl + 1);
      if (line.trim() === "") continue;
      log.push(`{"dir":"s2c","msg":${line}}`);
      const msg = JSON.parse(line);
      if (msg.method !== undefined && msg.id !== undefined) {
        const result = answer(msg);
        if (result) send({ jsonrpc: "2.0", id: msg.id, result });
        else send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } });
      } else if (msg.method === undefined && pending.has(msg.id)) {
        pending.get(msg.id)(msg);
        pending.delete(msg.id);
      }
    }
  });

  function call(method, params) {
    const id = ++nextId;
    const msg = { jsonrpc: "2.0", id, method };
    if (params !== undefined) msg.params = params;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`timed out: ${method}`));
      }, timeoutMs);
      pending.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      send(msg);
    });
  }

  /// Ends the session and writes the log to `out`.
  function close(out) {
    child.stdin.end();
    child.kill();
    writeFileSync(out, log.join("\n") + "\n");
    return log.length;
  }

  return { send, call, close, kill: () => child.kill() };
}
