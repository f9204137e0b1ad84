#!/usr/bin/env node
// Records a HAR of real Streamable HTTP traffic for cli/tests/har.rs: the reference server
// (server-everything in its streamableHttp mode) behind a small recording reverse proxy, and the
// TypeScript SDK's client talking to it through the proxy. Each HTTP exchange becomes a HAR 1.2
// entry (listed by start time, as browsers write them), bodies as text, SSE bodies as they streamed.
//
//   node record.mjs OUT.har [sse]
//
// With `sse`, the server runs in its `sse` mode and the client uses the 2024-11-05 HTTP+SSE transport
// (a GET /sse stream that announces the endpoint, POSTs to it), for the legacy transport rules.

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";

const out = process.argv[2];
if (!out) {
  console.error("usage: record.mjs OUT.har [sse]");
  process.exit(2);
}
const legacy = process.argv[3] === "sse";

const freePort = () => new Promise((ok) => { const s = net.createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => ok(p)); }); });
const port = await freePort();
const serverJs = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
const server = spawn(process.execPath, [serverJs, legacy ? "sse" : "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
let serverLog = "";
await new Promise((ok, fail) => {
  server.stderr.on("data", (d) => { serverLog += d; if (serverLog.includes("listening") || serverLog.includes("running")) ok(); });
  server.on("exit", (c) => fail(new Error(`server exited ${c}: ${serverLog}`)));
  setTimeout(() => fail(new Error(`server did not start: ${serverLog}`)), 20000);
});

// Bodies past this are cut in the recording (a test capture stays small).
const BODY_CAP = 1 << 20;
const entries = [];
const pairs = (h) => Object.entries(h).flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ name, value: String(value) })));
const proxy = http.createServer((req, res) => {
  const started = new Date();
  const entry = { startedDateTime: started.toISOString(), time: 0, request: null, response: null, cache: {}, timings: { send: 0, wait: 0, receive: 0 } };
  entries.push(entry);
  const reqBody = [];
  req.on("data", (c) => reqBody.push(c));
  req.on("end", () => {
    const text = Buffer.concat(reqBody).toString("utf8");
    entry.request = { method: req.method, url: `http://127.0.0.1:${proxy.address().port}${req.url}`, httpVersion: `HTTP/${req.httpVersion}`, headers: pairs(req.headers), queryString: [], cookies: [], headersSize: -1, bodySize: Buffer.byteLength(text) };
    if (text) entry.request.postData = { mimeType: req.headers["content-type"] ?? "", text };
    const up = http.request({ host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers }, (upRes) => {
      const waited = Date.now() - started.getTime();
      res.writeHead(upRes.statusCode, upRes.headers);
      const chunks = [];
      let size = 0;
      const done = () => {
        if (entry.response) return;
        const body = Buffer.concat(chunks).toString("utf8");
        entry.time = Date.now() - started.getTime();
        entry.timings = { send: 0, wait: waited, receive: entry.time - waited };
        entry.response = { status: upRes.statusCode, statusText: upRes.statusMessage ?? "", httpVersion: `HTTP/${upRes.httpVersion}`, headers: pairs(upRes.headers), cookies: [], content: { size, mimeType: upRes.headers["content-type"] ?? "", text: body }, redirectURL: "", headersSize: -1, bodySize: size };
      };
      upRes.on("data", (c) => { size += c.length; if (size <= BODY_CAP) chunks.push(c); res.write(c); });
      upRes.on("end", () => { done(); res.end(); });
      // A stream the client closes (the GET stream at the end) is recorded as far as it went.
      res.on("close", () => { done(); upRes.destroy(); });
    });
    up.on("error", (e) => { res.writeHead(502); res.end(String(e)); });
    up.end(text);
  });
});
await new Promise((ok) => proxy.listen(0, "127.0.0.1", ok));

const base = `http://127.0.0.1:${proxy.address().port}`;
const transport = legacy ? new SSEClientTransport(new URL(`${base}/sse`)) : new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
const client = new Client({ name: "mcp-schema-har-test", version: "0.0.0" });
await client.connect(transport);
await client.listTools();
await client.callTool({ name: "echo", arguments: { message: "recorded ü" } });
await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3.5 } });
await client.listResources();
await client.readResource({ uri: "demo://resource/static/document/architecture.md" });
await client.listPrompts();
await client.ping();
if (!legacy) await transport.terminateSession();
await client.close();
// Let the proxy see the streams close before writing.
await new Promise((ok) => setTimeout(ok, 300));
proxy.close();
server.kill();

const done = entries.filter((e) => e.request && e.response);
writeFileSync(out, JSON.stringify({ log: { version: "1.2", creator: { name: "mcp-schema har test recorder", version: "1" }, entries: done } }, null, 2));
console.log(`${done.length} entries`);
process.exit(0);
