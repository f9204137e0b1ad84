// What the two scripted-client recorders (`record.mjs`, `tasks.mjs`) share: their command line,
// the client's answers to the server's plain requests, the opening of the session, the prompt and
// completion calls, and the ending that writes the recording.

/// `SCRIPT VERSION OUT.jsonl SERVER_COMMAND...`, or the usage and exit.
export function scriptArgs(name) {
  const [version, out, ...command] = process.argv.slice(2);
  if (!version || !out || command.length === 0) {
    console.error(`usage: ${name} VERSION OUT.jsonl SERVER_COMMAND...`);
    process.exit(2);
  }
  return { version, out, command };
}

export const wait = (ms) => new Promise((r) => setTimeout(r, ms));

/// The client's result for a server request it serves directly, or null (Method not found).
export function plainAnswer(msg) {
  switch (msg.method) {
    case "roots/list":
      return { roots: [{ uri: "file:///home/user/project", name: "project" }] };
    case "sampling/createMessage":
      return {
        role: "assistant",
        content: { type: "text", text: "The capital of France is Paris." },
        model: "bench-model-1",
        stopReason: "endTurn",
      };
    case "elicitation/create":
      if (msg.params?.mode === "url") return { action: "accept" };
      if (msg.params?.requestedSchema?.properties?.interpretation) {
        return { action: "accept", content: { interpretation: "historical" } };
      }
      return { action: "accept", content: { name: "Ada", age: 36, subscribe: true } };
    case "ping":
      return {};
    default:
      return null;
  }
}

/// `initialize` at `version` (an error unless the server agrees), `notifications/initialized`,
/// `tools/list` and `logging/setLevel`; gives whether the server has a tool of a given name.
export async function openSession(client, version, capabilities) {
  const init = await client.call("initialize", {
    protocolVersion: version,
    capabilities,
    clientInfo: { name: "mcp-schema-bench-recorder", version: "0.0.0" },
  });
  if (init.result?.protocolVersion !== version) {
    throw new Error(`server answered protocol ${init.result?.protocolVersion}, wanted ${version}`);
  }
  client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await wait(100);
  const tools = (await client.call("tools/list", {})).result.tools.map((t) => t.name);
  await client.call("logging/setLevel", { level: "debug" });
  return (name) => tools.includes(name);
}

/// The reference server's simple tools: text with escapes, numbers, an image, annotations,
/// structured content where the server has it.
export async function simpleTools(client, has) {
  const tool = (name, args) => client.call("tools/call", { name, arguments: args });
  await tool("echo", { message: "Hello, \u00e9t\u00e9 \u2603 \"quoted\" \\ back\nslash" });
  await tool("get-sum", { a: 40, b: 2.5 });
  await tool("get-tiny-image", {});
  await tool("get-annotated-message", { messageType: "error", includeImage: true });
  if (has("get-structured-content")) await tool("get-structured-content", { location: "New York" });
}

/// The reference server's prompts, each kind once, and a completion of a prompt argument.
export async function promptsAndCompletion(client) {
  await client.call("prompts/list", {});
  await client.call("prompts/get", { name: "simple-prompt" });
  await client.call("prompts/get", { name: "args-prompt", arguments: { city: "Lyon", state: "ARA" } });
  await client.call("prompts/get", { name: "resource-prompt", arguments: { resourceType: "Text", resourceId: "2" } });
  await client.call("completion/complete", {
    ref: { type: "ref/prompt", name: "completable-prompt" },
    argument: { name: "department", value: "En" },
  });
}

/// `resources/list`, its first `count` resources read, a binary one read, and the templates listed.
export async function readResources(client, count) {
  const resources = (await client.call("resources/list", {})).result.resources;
  for (const r of resources.slice(0, count)) await client.call("resources/read", { uri: r.uri });
  await client.call("resources/read", { uri: "demo://resource/dynamic/blob/7" });
  await client.call("resources/templates/list", {});
}

/// Runs `script`, then writes the recording to `out` and exits (1 on an error, after stopping the server).
export function finish(script, client, out) {
  script()
    .then(() => {
      console.error(`${out}: ${client.close(out)} messages`);
      process.exit(0);
    })
    .catch((e) => {
      console.error(String(e.stack || e));
      client.kill();
      process.exit(1);
    });
}
