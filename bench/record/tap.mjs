#!/usr/bin/env node
// Sits between a real MCP client and a real stdio server and records what they say: the client
// starts `node tap.mjs OUT.jsonl -- SERVER_COMMAND...` as if it were the server. Every line is
// passed on unchanged and logged byte for byte as `{"dir":"c2s"|"s2c","msg":MESSAGE}`, the format
// of `stdio-client.mjs`; the log is written when either side closes.

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

const args = process.argv.slice(2);
if (args.length < 3 || args[1] !== "--") {
  console.error("usage: tap.mjs OUT.jsonl -- SERVER_COMMAND...");
  process.exit(2);
}
const [out, , ...command] = args;
const log = [];
const server = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });

// Splits a byte stream into lines, logs each, and passes it on with its newline.
function relay(from, to, dir) {
  let rest = "";
  from.setEncoding("utf8");
  from.on("data", (chunk) => {
    rest += chunk;
    let nl;
    while ((nl = rest.indexOf("\n")) >= 0) {
      const line = rest.slice(0, nl).replace(/\r$/, "");
      rest = rest.slice(nl + 1);
      if (line.trim() !== "") log.push(`{"dir":"${dir}","msg":${line}}`);
      to.write(line + "\n");
    }
  });
}

let written = false;
function finish(code) {
  if (!written) {
    written = true;
    writeFileSync(out, log.join("\n") + "\n");
  }
  process.exit(code);
}
relay(process.stdin, server.stdin, "c2s");
relay(server.stdout, process.stdout, "s2c");
process.stdin.on("end", () => {
  server.stdin.end();
  setTimeout(() => finish(0), 500);
});
server.on("exit", (code) => finish(code ?? 0));
process.on("SIGTERM", () => {
  server.kill();
  finish(0);
});
