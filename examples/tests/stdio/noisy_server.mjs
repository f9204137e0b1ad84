// A scripted MCP server for tests/stdio_client.rs: before each answer it sends a notification,
// a `ping` and a `sampling/createMessage` (which the client did not declare), so a client that
// takes the next line as its answer fails. It exits 1 unless the client answered the ping with
// a result and the sampling request with -32601, each once. Node only, no packages.
import { createInterface } from "node:readline";

const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
const answers = new Map();
let asked = 0;
let problems = [];

const results = {
  initialize: () => ({
    protocolVersion: "2025-11-25",
    capabilities: { tools: {}, resources: {} },
    serverInfo: { name: "noisy", version: "1.0.0" },
  }),
  "tools/list": () => ({
    tools: [{ name: "shout", description: "Upper-cases its text.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }],
  }),
  "tools/call": (params) =>
    params.name === "shout"
      ? { content: [{ type: "text", text: String(params.arguments?.text).toUpperCase() }] }
      : { error: { code: -32602, message: `unknown tool: ${params.name}` } },
  "resources/list": () => ({ resources: [{ uri: "noisy://one", name: "one" }] }),
  "resources/read": (params) => ({ contents: [{ uri: params.uri, text: "1" }] }),
};

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.method === undefined) {
    answers.set(message.id, message);
    return;
  }
  if (message.id === undefined) return;
  asked += 1;
  send({ method: "notifications/message", params: { level: "info", data: `about to answer ${message.method}` } });
  send({ id: `ping-${asked}`, method: "ping" });
  send({ id: `sampling-${asked}`, method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } });
  send({ method: "notifications/progress", params: { progressToken: "nobody", progress: 1 } });
  const make = results[message.method];
  const result = make ? make(message.params ?? {}) : { error: { code: -32601, message: "Method not found" } };
  send(result.error ? { id: message.id, error: result.error } : { id: message.id, result });
}).on("close", () => {
  for (let n = 1; n <= asked; n++) {
    const ping = answers.get(`ping-${n}`);
    const sampling = answers.get(`sampling-${n}`);
    if (!ping || JSON.stringify(ping.result) !== "{}") problems.push(`ping-${n}: ${JSON.stringify(ping)}`);
    if (!sampling || sampling.error?.code !== -32601) problems.push(`sampling-${n}: ${JSON.stringify(sampling)}`);
  }
  if (answers.size !== 2 * asked) problems.push(`${answers.size} answers to ${2 * asked} requests`);
  for (const p of problems) console.error(p);
  process.exit(problems.length === 0 ? 0 : 1);
});
