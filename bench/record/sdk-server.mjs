#!/usr/bin/env node
// A small server on the official TypeScript SDK v2 (`@modelcontextprotocol/server`), for recording
// 2026-07-28 traffic between the official SDKs (`bench/record/sdks.sh`), the counterpart of
// `sdk_server.py`. Everything it sends is short. The tools that need the client's input return
// `inputRequired(...)`: at 2026-07-28 the client answers and retries the call.
//
//   node sdk-server.mjs        # stdio

import { McpServer, acceptedContent, inputRequired, inputResponse } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

// `serveStdio` picks the era from the client's first message and builds one server for it.
function createServer() {
const server = new McpServer({ name: "bench-typescript-server", version: "0.1.0" });

server.registerTool("echo", { description: "Echoes the message.", inputSchema: z.object({ message: z.string() }) }, async ({ message }) => ({
  content: [{ type: "text", text: message }],
}));

server.registerTool(
  "add",
  {
    description: "Adds numbers.",
    inputSchema: z.object({ numbers: z.array(z.number()) }),
    outputSchema: z.object({ total: z.number(), terms: z.number() }),
    annotations: { readOnlyHint: true, idempotentHint: true },
  },
  async ({ numbers }) => {
    const result = { total: numbers.reduce((a, b) => a + b, 0), terms: numbers.length };
    return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
  },
);

server.registerTool("greet", { description: "Greets a contact the user names.", inputSchema: z.object({}) }, async (_args, ctx) => {
  const contact = acceptedContent(ctx.mcpReq.inputResponses, "contact");
  if (!contact) {
    return inputRequired({
      inputRequests: {
        contact: inputRequired.elicit({
          message: "Who should be greeted?",
          requestedSchema: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name"] },
        }),
      },
    });
  }
  return { content: [{ type: "text", text: `Hello ${contact.name} (${contact.age})` }] };
});

server.registerTool("ask", { description: "Asks the client's model a question.", inputSchema: z.object({ question: z.string() }) }, async ({ question }, ctx) => {
  const answer = inputResponse(ctx.mcpReq.inputResponses, "answer");
  if (answer.kind === "missing") {
    return inputRequired({
      inputRequests: {
        answer: inputRequired.createMessage({ messages: [{ role: "user", content: { type: "text", text: question } }], maxTokens: 40 }),
        roots: inputRequired.listRoots(),
      },
    });
  }
  return { content: [{ type: "text", text: answer.result.content.text }] };
});

server.registerTool("fail", { description: "Fails on purpose.", inputSchema: z.object({ reason: z.string() }) }, async ({ reason }) => {
  throw new Error(reason);
});

server.registerResource("today", "note://today", { mimeType: "text/plain", description: "Today's note." }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: "text/plain", text: "water the plants" }],
}));

server.registerPrompt(
  "summarize",
  { description: "Asks for a summary of a topic.", argsSchema: z.object({ topic: z.string() }) },
  async ({ topic }) => ({ messages: [{ role: "user", content: { type: "text", text: `Summarize ${topic} briefly.` } }] }),
);

return server;
}

serveStdio(createServer);
