#!/usr/bin/env node
// Real peers through `mcp-schema proxy --http`, for cli/tests/proxy_http_real.rs: the reference
// server (server-everything, in its `streamableHttp` or `sse` mode) and the TypeScript SDK's
// client (`StreamableHTTPClientTransport` or the 2024-11-05 `SSEClientTransport`). The client
// runs its steps once straight against the server and once through
//
//   client -> tap A -> mcp-schema proxy --http -> tap B -> server
//
// where each tap is a pass-through that keeps the bytes of every exchange (request body, response
// body). It prints one JSON line: the answers of both runs, whether they are the same, and whether
// every exchange's bytes at A (what the client sent and got) equal those at B (what the server got
// and sent).
//
//   node peers.mjs streamableHttp|sse MCP_SCHEMA RECORD FINDINGS

import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";

const [mode, bin, record, findings] = process.argv.slice(2);
if (!["streamableHttp", "sse"].includes(mode) || !findings) {
  console.error("usage: peers.mjs streamableHttp|sse MCP_SCHEMA RECORD FINDINGS");
  process.exit(2);
}
const path = mode === "sse" ? "/sse" : "/mcp";

const freePort = () => new Promise((ok) => { const s = net.createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => ok(p)); }); });
const port = await freePort();
const serverJs = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
const server = spawn(process.execPath, [serverJs, mode], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
let serverLog = "";
await new Promise((ok, fail) => {
  server.stderr.on("data", (d) => { serverLog += d; if (/listening|running/i.test(serverLog)) ok(); });
  server.on("exit", (c) => fail(new Error(`server exited ${c}: ${serverLog}`)));
  setTimeout(() => fail(new Error(`server did not start: ${serverLog}`)), 20000);
});

// A pass-through that keeps each exchange's bytes in both directions as they passed.
function tap(targetPort) {
  const exchanges = [];
  const server = http.createServer((req, res) => {
    const x = { method: req.method, url: req.url, req: [], res: [], status: 0, complete: false };
    exchanges.push(x);
    const up = http.request({ host: "127.0.0.1", port: targetPort(), method: req.method, path: req.url, headers: req.headers }, (upRes) => {
      x.status = upRes.statusCode;
      res.writeHead(upRes.statusCode, upRes.headers);
      upRes.on("data", (c) => { x.res.push(c); res.write(c); });
      upRes.on("end", () => { x.complete = true; res.end(); });
      res.on("close", () => upRes.destroy());
    });
    up.on("error", (e) => { if (!res.headersSent) res.writeHead(502); res.end(String(e)); });
    req.on("data", (c) => { x.req.push(c); up.write(c); });
    req.on("end", () => up.end());
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok({ server, exchanges, port: server.address().port })));
}

const b = await tap(() => port);
const proxy = spawn(bin, ["proxy", "--http", "--listen", "127.0.0.1:0", "--upstream", `http://127.0.0.1:${b.port}${path}`, "--record", record, "--findings", findings, "--summary"], { stdio: ["ignore", "inherit", "pipe"] });
let proxyLog = "";
const proxyPort = await new Promise((ok, fail) => {
  proxy.stderr.on("data", (d) => { proxyLog += d; const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(proxyLog); if (m) ok(Number(m[1])); });
  proxy.on("exit", (c) => fail(new Error(`proxy exited ${c}: ${proxyLog}`)));
});
const proxyExit = new Promise((ok) => proxy.on("exit", (code, signal) => ok(code ?? signal)));
const a = await tap(() => proxyPort);

const text = (r) => r.content?.find((c) => c.type === "text")?.text;
async function steps(base) {
  const url = new URL(`${base}${path}`);
  const transport = mode === "sse" ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url);
  const client = new Client({ name: "mcp-schema-proxy-http-test", version: "0.0.0" });
  const r = {};
  await client.connect(transport);
  r.server = client.getServerVersion()?.name;
  r.tools = (await client.listTools()).tools.map((t) => t.name).sort();
  r.echo = text(await client.callTool({ name: "echo", arguments: { message: "through the proxy ü \u2028 ok" } }));
  r.sum = text(await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3.5 } }));
  const progress = [];
  r.long = text(await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 1, steps: 3 } }, undefined, { onprogress: (p) => progress.push([p.progress, p.total]) }));
  // How many of the progress notifications arrive before the result is a race in the server (sse
  // mode loses the last one now and then even without the proxy): compared as "some came".
  r.progress = progress.length > 0;
  notes.push(progress);
  r.resources = (await client.listResources()).resources.map((x) => x.uri).sort();
  const uri = "demo://resource/static/document/architecture.md";
  r.read = (await client.readResource({ uri })).contents.map((c) => [c.uri, c.text?.length]);
  r.prompts = (await client.listPrompts()).prompts.map((p) => p.name).sort();
  r.prompt = (await client.getPrompt({ name: "args-prompt", arguments: { city: "Lyon" } })).messages;
  r.ping = await client.ping();
  if (mode !== "sse") await transport.terminateSession();
  await client.close();
  return r;
}

const notes = [];
let direct, proxied, error = null;
try {
  direct = await steps(`http://127.0.0.1:${port}`);
  proxied = await steps(`http://127.0.0.1:${a.port}`);
} catch (e) {
  error = String(e?.stack ?? e);
}
// Let the taps and the proxy see the streams close.
await new Promise((ok) => setTimeout(ok, 500));
proxy.kill("SIGINT");
const exit = await proxyExit;

// Every exchange at A has its twin at B, the same bytes each way (a stream the client closed
// may have passed B with more bytes than reached A: then A's must be where B's start).
const bytes = (parts) => Buffer.concat(parts);
const mismatches = [];
const unmatched = [...b.exchanges];
let messagesBytes = 0;
for (const x of a.exchanges) {
  const i = unmatched.findIndex((y) => y.method === x.method && y.url === x.url && bytes(y.req).equals(bytes(x.req)) && (bytes(y.res).equals(bytes(x.res)) || (!x.complete && bytes(y.res).subarray(0, bytes(x.res).length).equals(bytes(x.res)))));
  if (i < 0) mismatches.push({ method: x.method, url: x.url, req: bytes(x.req).toString(), res: bytes(x.res).toString().slice(0, 2000) });
  else unmatched.splice(i, 1);
  messagesBytes += bytes(x.req).length + bytes(x.res).length;
}
server.kill();
a.server.close();
b.server.close();
const report = {
  mode,
  error,
  same: JSON.stringify(direct) === JSON.stringify(proxied),
  direct,
  proxied,
  progress: notes,
  exchanges: a.exchanges.length,
  methods: a.exchanges.map((x) => `${x.method} ${x.status}`),
  bytes: messagesBytes,
  bytesUnchanged: mismatches.length === 0 && unmatched.length === 0 && a.exchanges.length > 0,
  mismatches,
  unmatchedAtB: unmatched.map((y) => `${y.method} ${y.url}`),
  proxyExit: exit,
};
console.log(JSON.stringify(report));
process.exit(0);
