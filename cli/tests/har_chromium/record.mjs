#!/usr/bin/env node
// Records a HAR of a web page talking MCP to a Streamable HTTP server, as headless Chromium saw it,
// for cli/tests/har_chromium.rs. The server is server-everything in its streamableHttp mode (the
// version cli/tests/har_real pins); the page is served here, on another port, so its requests are
// cross-origin: server-everything allows any origin (CORS `*`), and Chromium adds the preflights.
// Chromium is driven through the DevTools protocol over --remote-debugging-pipe (no packages): the
// Network domain's events and Network.getResponseBody / getRequestPostData make the HAR 1.2.
//
//   node record.mjs SERVER_EVERYTHING_DIR OUT.har [CHROMIUM]

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

const [pkgDir, out, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
if (!pkgDir || !out) {
  console.error("usage: record.mjs SERVER_EVERYTHING_DIR OUT.har [CHROMIUM]");
  process.exit(2);
}
const fail = (why) => { console.error(why); cleanup(); process.exit(1); };
const deadline = setTimeout(() => fail("timed out"), 60000);

const freePort = () => new Promise((ok) => { const s = net.createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => ok(p)); }); });
const port = await freePort();
const serverJs = createRequire(path.join(path.resolve(pkgDir), "package.json")).resolve("@modelcontextprotocol/server-everything/dist/index.js");
const server = spawn(process.execPath, [serverJs, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
let serverLog = "";
await new Promise((ok, no) => {
  server.stderr.on("data", (d) => { serverLog += d; if (serverLog.includes("listening")) ok(); });
  server.on("exit", (c) => no(new Error(`server exited ${c}: ${serverLog}`)));
}).catch((e) => fail(String(e)));

// The page: plain fetch calls, written for this test. Each POST is answered over SSE (the server's
// default); the body is read whole once the server ends the stream after its response.
const page = `<!doctype html><meta charset="utf-8"><title>mcp</title><script>
const url = "http://127.0.0.1:${port}/mcp";
let sid = null, version = null, next = 0;
function parse(type, text) {
  if (!(type || "").startsWith("text/event-stream")) return text ? [JSON.parse(text)] : [];
  return text.split(/\\r?\\n\\r?\\n/).map((ev) => ev.split(/\\r?\\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\\n")).filter((d) => d).map((d) => JSON.parse(d));
}
async function send(msg) {
  const headers = { "content-type": "application/json", "accept": "application/json, text/event-stream" };
  if (sid) headers["mcp-session-id"] = sid;
  if (version) headers["mcp-protocol-version"] = version;
  const r = await fetch(url, { method: "POST", headers, body: JSON.stringify(msg) });
  sid = sid || r.headers.get("mcp-session-id");
  return parse(r.headers.get("content-type"), await r.text());
}
const request = async (method, params) => {
  const id = ++next;
  const got = await send({ jsonrpc: "2.0", id, method, params });
  const answer = got.find((m) => m.id === id);
  if (!answer || answer.error) throw new Error(method + ": " + JSON.stringify(got));
  return answer.result;
};
(async () => {
  const init = await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "har-chromium-page", version: "0.0.0" } });
  version = init.protocolVersion;
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await request("tools/list", {});
  await request("tools/call", { name: "echo", arguments: { message: "from the page ü" } });
  await request("tools/call", { name: "trigger-long-running-operation", arguments: { duration: 0.4, steps: 2 }, _meta: { progressToken: "p1" } });
  await fetch(url, { method: "DELETE", headers: { "mcp-session-id": sid, "mcp-protocol-version": version } });
  await fetch("/done?ok=1");
})().catch((e) => fetch("/done?error=" + encodeURIComponent(String(e))));
</script>`;
let finished;
const done = new Promise((ok) => { finished = ok; });
const pageServer = http.createServer((req, res) => {
  if (req.url.startsWith("/done")) {
    res.end("bye");
    finished(new URL(req.url, "http://x").searchParams.get("error"));
    return;
  }
  res.writeHead(req.url === "/" ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
  res.end(req.url === "/" ? page : "");
});
await new Promise((ok) => pageServer.listen(0, "127.0.0.1", ok));

const profile = mkdtempSync(path.join(os.tmpdir(), "har-chromium-"));
const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`, "--remote-debugging-pipe", "about:blank"];
const browser = spawn(chromium, flags, { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
let browserLog = "";
browser.stderr.on("data", (d) => { browserLog = (browserLog + d).slice(-4000); });
browser.on("error", (e) => fail(`chromium did not start: ${e}`));
function cleanup() {
  try { browser?.kill(); } catch {}
  try { server?.kill(); } catch {}
  try { rmSync(profile, { recursive: true, force: true }); } catch {}
}

// The DevTools protocol over the pipe: JSON messages ended by NUL, fd 3 to Chromium, fd 4 from it.
const toBrowser = browser.stdio[3], fromBrowser = browser.stdio[4];
let nextId = 0, buffered = "";
const pending = new Map();
const listeners = [];
fromBrowser.on("data", (chunk) => {
  buffered += chunk.toString("utf8");
  let end;
  while ((end = buffered.indexOf("\0")) >= 0) {
    const msg = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (msg.id !== undefined && pending.has(msg.id)) {
      const { ok, no } = pending.get(msg.id);
      pending.delete(msg.id);
      msg.error ? no(new Error(`${JSON.stringify(msg.error)}`)) : ok(msg.result);
    } else if (msg.method) {
      for (const l of listeners) l(msg);
    }
  }
});
const cdp = (method, params = {}, sessionId) => new Promise((ok, no) => {
  const id = ++nextId;
  pending.set(id, { ok, no });
  toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + "\0");
});

// What the Network domain says about each request, by requestId.
const requests = new Map();
const bodies = [];
let session;
listeners.push((m) => {
  if (m.sessionId !== session) return;
  const p = m.params;
  const r = requests.get(p.requestId) ?? { id: p.requestId, extra: {} };
  requests.set(p.requestId, r);
  switch (m.method) {
    case "Network.requestWillBeSent": r.sent = p; break;
    case "Network.requestWillBeSentExtraInfo": Object.assign(r.extra, p.headers); break;
    case "Network.responseReceived": r.response = p.response; break;
    case "Network.loadingFinished":
      r.finished = p;
      bodies.push(cdp("Network.getResponseBody", { requestId: p.requestId }, session).then((b) => { r.body = b; }, () => { r.body = null; }));
      if (r.sent?.request.hasPostData && r.sent.request.postData === undefined) {
        bodies.push(cdp("Network.getRequestPostData", { requestId: p.requestId }, session).then((b) => { r.postData = b.postData; }, () => {}));
      }
      break;
    case "Network.loadingFailed": r.failed = p; break;
  }
});

try {
  const { targetId } = await cdp("Target.createTarget", { url: "about:blank" });
  ({ sessionId: session } = await cdp("Target.attachToTarget", { targetId, flatten: true }));
  await cdp("Network.enable", { maxPostDataSize: 1 << 20 }, session);
  await cdp("Page.navigate", { url: `http://127.0.0.1:${pageServer.address().port}/` }, session);
} catch (e) {
  fail(`DevTools: ${e}\n${browserLog}`);
}
const error = await done;
if (error) fail(`the page failed: ${error}`);
// The /done request's own events, and the bodies asked for.
await new Promise((ok) => setTimeout(ok, 300));
await Promise.all(bodies);
await cdp("Browser.close").catch(() => {});
clearTimeout(deadline);
cleanup();
pageServer.close();

const pairs = (h) => Object.entries(h ?? {}).map(([name, value]) => ({ name, value: String(value) }));
const entries = [...requests.values()].filter((r) => r.sent && r.response).map((r) => {
  const q = r.sent.request, s = r.response;
  // The headers sent on the wire (with Origin and Host) where Chromium reported them.
  const headers = Object.keys(r.extra).length ? r.extra : q.headers;
  const post = q.postData ?? r.postData;
  const started = new Date(r.sent.wallTime * 1000).toISOString();
  const time = r.finished ? Math.max(0, (r.finished.timestamp - r.sent.timestamp) * 1000) : 0;
  const entry = {
    startedDateTime: started, time,
    request: { method: q.method, url: q.url, httpVersion: s.protocol ?? "http/1.1", headers: pairs(headers), queryString: [...new URL(q.url).searchParams].map(([name, value]) => ({ name, value })), cookies: [], headersSize: -1, bodySize: post ? Buffer.byteLength(post) : 0 },
    response: { status: s.status, statusText: s.statusText ?? "", httpVersion: s.protocol ?? "http/1.1", headers: pairs(s.headers), cookies: [], content: { size: r.finished?.encodedDataLength ?? 0, mimeType: s.mimeType ?? "" }, redirectURL: "", headersSize: -1, bodySize: -1 },
    cache: {}, timings: { send: 0, wait: time, receive: 0 },
  };
  if (post !== undefined) entry.request.postData = { mimeType: q.headers["Content-Type"] ?? q.headers["content-type"] ?? "", text: post };
  if (r.body) {
    entry.response.content.text = r.body.body;
    if (r.body.base64Encoded) entry.response.content.encoding = "base64";
  }
  return entry;
}).sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
writeFileSync(out, JSON.stringify({ log: { version: "1.2", creator: { name: "mcp-schema chromium recorder", version: "1" }, browser: { name: "Chromium", version: "" }, entries } }, null, 2));
console.log(`${entries.length} entries`);
process.exit(0);
