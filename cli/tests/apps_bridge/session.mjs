// Records the MCP Apps view<->host traffic of the ext-apps SDK's own classes: an `App` (the view)
// and an `AppBridge` (the host) joined by the SDK's `PostMessageTransport`, with the host's MCP
// `Client` connected to a small `McpServer`. Writes one JSONL line per message to the file named
// by the first argument, as `mcp-schema check --ext apps` reads it: `view2host` / `host2view` for
// the view<->host channel, `c2s` / `s2c` for the host's session with the server.
//
// The page is a real DOM (happy-dom): the host's window, and an iframe whose document is the UI
// resource the host read; each transport posts with that DOM's `postMessage` and listens for its
// `MessageEvent`s. Two shims sit on top of it, both marked below:
// - Node has one global object where a browser gives each frame its own, and the transport adds
//   and removes its listener on the global `window`; that global is set to the side's own window
//   while the side connects and closes.
// - happy-dom gives a message posted to the top window the top window itself as `source`, where a
//   browser gives the window that posted it; the host's transport would drop every message of the
//   view. A first listener on the host's window sets the view's window as `source`.
// (happy-dom also delivers the sender's object where a browser delivers a structured clone; the
// messages are recorded as sent, so that changes nothing here.)

import { writeFileSync } from "node:fs";
import { App, PostMessageTransport } from "@modelcontextprotocol/ext-apps";
import { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { Browser } from "happy-dom";

const out = process.argv[2];
if (!out) throw new Error("usage: node session.mjs OUTPUT.jsonl");
const lines = [];
// A message dropped on the way leaves a request unanswered: fail instead of waiting forever.
const stalled = setTimeout(() => {
  console.error(`the session stalled after ${lines.length} messages`);
  process.exit(1);
}, 60_000);
// The SDK's transport logs every message it sends and receives at debug level.
console.debug = () => {};
const record = (dir, msg) => lines.push(JSON.stringify({ dir, msg }));

// The server: a UI tool, an app-only tool, a model-only tool, and the UI resource.
const UI = "ui://weather/view.html";
const server = new McpServer({ name: "weather", version: "1.0.0" });
server.registerTool(
  "get-weather",
  { description: "The weather in a city", inputSchema: z.object({ city: z.string() }), _meta: { ui: { resourceUri: UI } } },
  async ({ city }) => ({ content: [{ type: "text", text: `Sunny in ${city}` }], structuredContent: { city, sky: "sunny" } }),
);
server.registerTool(
  "refresh",
  { description: "Fetch fresh data for the view", inputSchema: z.object({}), _meta: { ui: { resourceUri: UI, visibility: ["app"] } } },
  async () => ({ content: [{ type: "text", text: "refreshed" }] }),
);
server.registerTool(
  "admin-reset",
  { description: "Reset the cache (agent only)", inputSchema: z.object({}), _meta: { ui: { visibility: ["model"] } } },
  async () => ({ content: [{ type: "text", text: "reset" }] }),
);
server.registerResource("weather-view", UI, { mimeType: "text/html;profile=mcp-app" }, async () => ({
  contents: [{ uri: UI, mimeType: "text/html;profile=mcp-app", text: "<!doctype html><title>Weather</title><p id=sky></p>" }],
}));

// Each transport's messages are recorded as it sends them, under its direction.
const tapped = (transport, dir) => {
  const send = transport.send.bind(transport);
  transport.send = (msg, options) => {
    record(dir, msg);
    return send(msg, options);
  };
  return transport;
};

// The host's MCP session with the server, recorded as c2s / s2c.
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(tapped(serverSide, "s2c"));
const client = new Client({ name: "weather-host", version: "1.0.0" }, { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } } });
await client.connect(tapped(clientSide, "c2s"));
const { tools } = await client.listTools();
const resource = await client.readResource({ uri: UI });

// The host's page, with the view in an iframe made from the UI resource's HTML.
const browser = new Browser({ settings: { disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
const page = browser.newPage();
page.url = "https://host.example/";
const hostWindow = page.mainFrame.window;
const iframe = hostWindow.document.createElement("iframe");
iframe.srcdoc = resource.contents[0].text;
hostWindow.document.body.appendChild(iframe);
await page.waitUntilComplete();
const viewWindow = iframe.contentWindow;
if (!viewWindow || viewWindow.parent !== hostWindow) throw new Error("the iframe has no window of its own");

// Shim: in this page only the view posts to the host's window, so the view's window is the
// `source` a browser would give. (Messages to the view already come with the host's window.)
hostWindow.addEventListener("message", (event) => Object.defineProperty(event, "source", { value: viewWindow }));
// The message events each window's DOM fired, for the test to match against the recording.
const delivered = { view2host: 0, host2view: 0 };
hostWindow.addEventListener("message", () => delivered.view2host++);
viewWindow.addEventListener("message", () => delivered.host2view++);
// Shim: the global `window` the transport listens on is the connecting (or closing) side's.
const asWindow = async (win, step) => {
  globalThis.window = win;
  try {
    return await step();
  } finally {
    delete globalThis.window;
  }
};

// The host: an AppBridge forwarding the view's server requests to the client.
const hostContext = { theme: "dark", displayMode: "inline", availableDisplayModes: ["inline", "fullscreen"], locale: "en-GB" };
const bridge = new AppBridge(
  client,
  { name: "weather-host", version: "1.0.0" },
  {
    openLinks: {}, downloadFile: {}, serverTools: { listChanged: true }, serverResources: {}, logging: {},
    updateModelContext: { text: {} }, message: { text: {} }, sampling: {},
  },
  { hostContext },
);
const initialized = new Promise((resolve) => (bridge.oninitialized = resolve));
bridge.onmessage = async () => ({});
bridge.onopenlink = async () => ({});
bridge.ondownloadfile = async () => ({});
bridge.oncreatesamplingmessage = async () => ({ role: "assistant", content: { type: "text", text: "A sunny week" }, model: "fake-model" });
const teardownAsked = new Promise((resolve) => (bridge.onrequestteardown = resolve));
bridge.onupdatemodelcontext = async () => ({});
bridge.onrequestdisplaymode = async ({ mode }) => ({ mode });
bridge.onloggingmessage = () => {};
bridge.onsizechange = () => {};
await asWindow(hostWindow, () => bridge.connect(tapped(new PostMessageTransport(viewWindow, viewWindow), "host2view")));

// The view: an App with one tool of its own, for the host to list and call.
const app = new App({ name: "weather-view", version: "1.0.0" }, { tools: { listChanged: true } }, { autoResize: false });
const toolInput = new Promise((resolve) => (app.ontoolinput = resolve));
const toolResult = new Promise((resolve) => (app.ontoolresult = resolve));
app.onhostcontextchanged = () => {};
app.registerTool("highlight", { description: "Highlight a day in the view", inputSchema: z.object({ day: z.string() }) }, async ({ day }) => ({
  content: [{ type: "text", text: `highlighted ${day}` }],
}));
app.onteardown = async () => ({});
await asWindow(viewWindow, () => app.connect(tapped(new PostMessageTransport(viewWindow.parent, viewWindow.parent), "view2host")));
await initialized;

// The host's tool call to the server, shown in the view.
const args = { city: "Oslo" };
const callTool = tools.find((t) => t.name === "get-weather");
if (!callTool) throw new Error("the server did not list get-weather");
await bridge.sendToolInputPartial({ arguments: { city: "Os" } });
await bridge.sendToolInput({ arguments: args });
await bridge.sendToolResult(await client.callTool({ name: "get-weather", arguments: args }));
await Promise.all([toolInput, toolResult]);
await bridge.sendHostContextChange({ theme: "light" });

// The view at work: server tools and resources through the host, and the host's own features.
const check = (cond, what) => {
  if (!cond) throw new Error(`unexpected answer: ${what}`);
};
const refreshed = await app.callServerTool({ name: "refresh", arguments: {} });
check(refreshed.content?.[0]?.text === "refreshed", "refresh");
const weather = await app.callServerTool({ name: "get-weather", arguments: { city: "Bergen" } });
check(weather.structuredContent?.city === "Bergen", "get-weather");
const read = await app.readServerResource({ uri: UI });
check(read.contents?.[0]?.uri === UI, "resources/read");
const listed = await app.listServerResources({});
check(listed.resources?.some((r) => r.uri === UI), "resources/list");
await app.sendLog({ level: "info", data: "view ready" });
await app.sendSizeChanged({ width: 480, height: 320 });
await app.openLink({ url: "https://example.com/forecast" });
await app.sendMessage({ role: "user", content: [{ type: "text", text: "Show the week" }] });
await app.updateModelContext({ content: [{ type: "text", text: "The user looks at Bergen" }], structuredContent: { city: "Bergen" } });
const mode = await app.requestDisplayMode({ mode: "fullscreen" });
check(mode.mode === "fullscreen", "ui/request-display-mode");
await app.downloadFile({ contents: [{ type: "resource", resource: { uri: "file:///forecast.csv", mimeType: "text/csv", text: "day,sky\nFri,sunny\n" } }] });
const sampled = await app.createSamplingMessage({ messages: [{ role: "user", content: { type: "text", text: "Sum up the week" } }], maxTokens: 50 });
check(sampled.model === "fake-model", "sampling/createMessage");
await app.sendToolListChanged();
await bridge.sendToolListChanged();

// The host uses the view's own tool, pings it, then tears the view down.
const own = await bridge.listTools({});
check(own.tools?.some((t) => t.name === "highlight"), "the view's tools/list");
const highlighted = await bridge.callTool({ name: "highlight", arguments: { day: "Friday" } });
check(highlighted.content?.[0]?.text === "highlighted Friday", "the view's tools/call");
await bridge.request({ method: "ping" });
await app.request({ method: "ping" });
await app.requestTeardown();
await teardownAsked;
await bridge.teardownResource({});

await asWindow(hostWindow, () => bridge.close());
await asWindow(viewWindow, () => app.close());
await client.close();
await browser.close();
clearTimeout(stalled);
writeFileSync(out, lines.join("\n") + "\n");
console.log(`${lines.length} messages recorded`);
console.log(`DOM message events: view2host ${delivered.view2host}, host2view ${delivered.host2view}`);
