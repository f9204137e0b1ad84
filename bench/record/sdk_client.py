"""A 2026-07-28 client on the official Python SDK (`mcp` 2.x), for `bench/record/sdks.sh`: it starts the
server given on the command line over stdio, negotiates with `server/discover`, answers the server's input
requests (elicitation, sampling, roots) through its callbacks, and walks through what `sdk-server.mjs`
offers. Prints one line per step to stderr.

    python sdk_client.py SERVER [ARGS...]
"""

import asyncio
import sys

from mcp import Client, StdioServerParameters, types


async def sample(context, params):
    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text="Paris."), model="bench-model-1", stop_reason="endTurn"
    )


async def elicit(context, params):
    return types.ElicitResult(action="accept", content={"name": "Ada", "age": 36})


async def roots(context):
    return types.ListRootsResult(roots=[types.Root(uri="file:///home/user/project", name="project")])


async def main(command: list[str]) -> None:
    server = StdioServerParameters(command=command[0], args=command[1:])
    async with Client(
        server, mode="auto", sampling_callback=sample, elicitation_callback=elicit, list_roots_callback=roots
    ) as client:
        version = client.session.protocol_version if hasattr(client.session, "protocol_version") else "?"
        print("protocol:", version, file=sys.stderr)

        async def step(what, call):
            try:
                await call
                print(what, "ok", file=sys.stderr)
            except Exception as e:  # a failing step is traffic too
                print(what, "failed:", e, file=sys.stderr)

        await step("tools/list", client.list_tools())
        await step("echo", client.call_tool("echo", {"message": "Hello, \u00e9t\u00e9 \u2603"}))
        await step("add", client.call_tool("add", {"numbers": [1.5, 2, 40]}))
        await step("greet", client.call_tool("greet", {}))
        await step("ask", client.call_tool("ask", {"question": "Capital of France?"}))
        await step("fail", client.call_tool("fail", {"reason": "on purpose"}))
        await step("bad arguments", client.call_tool("add", {"numbers": "many"}))
        await step("no such tool", client.call_tool("no-such-tool", {}))
        await step("resources/list", client.list_resources())
        await step("read", client.read_resource("note://today"))
        await step("read missing", client.read_resource("nothing://here"))
        await step("prompts/list", client.list_prompts())
        await step("prompt", client.get_prompt("summarize", {"topic": "tides"}))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: sdk_client.py SERVER [ARGS...]")
    asyncio.run(main(sys.argv[1:]))
