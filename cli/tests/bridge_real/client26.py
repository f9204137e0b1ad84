"""A 2026-07-28 client on the official Python SDK (`mcp` 2.x, pinned in
examples/sdk-clients/requirements.txt), for cli/tests/bridge_real.rs.

Starts SERVER_COMMAND (`mcp-schema proxy --to 2025-11-25 -- <the reference server>`) over stdio
and lets the SDK negotiate (`mode="auto"`: `server/discover` first, on this connection), then runs
one step per line of output and `N passed, N failed`; exit status 1 if a step failed.

    python client26.py -- SERVER_COMMAND...
"""

import asyncio
import sys

import mcp_types as types
from mcp import Client, StdioServerParameters

sampled = 0


async def sample(context, params):
    global sampled
    sampled += 1
    content = types.TextContent(type="text", text=f"sampled: {len(params.messages)} message(s)")
    return types.CreateMessageResult(role="assistant", content=content, model="bridge-test-model", stop_reason="endTurn")


async def main(command: list[str]) -> int:
    passed = failed = 0

    async def step(name, run, expect):
        nonlocal passed, failed
        try:
            problem = expect(await run())
            if problem:
                raise AssertionError(problem)
            passed += 1
            print(f"ok {name}", flush=True)
        except Exception as e:  # a failed step is reported, the others still run
            failed += 1
            print(f"FAIL {name}: {e!r}", flush=True)

    server = StdioServerParameters(command=command[0], args=command[1:])
    async with Client(server, mode="auto", raise_exceptions=True, sampling_callback=sample) as client:
        def text(result):
            return next((c.text for c in result.content if c.type == "text"), None)

        async def version():
            return client.protocol_version

        await step("negotiated 2026-07-28 (server/discover)", version, lambda v: None if v == "2026-07-28" else f"negotiated {v}")
        await step("tools/list", client.list_tools, lambda r: None if {"echo", "get-sum"} <= {t.name for t in r.tools} else "echo or get-sum missing")
        await step("tools/call echo", lambda: client.call_tool("echo", {"message": "from python ü"}), lambda r: None if text(r) == "Echo: from python ü" else repr(r))
        await step("tools/call get-sum", lambda: client.call_tool("get-sum", {"a": 2, "b": 3.5}), lambda r: None if "5.5" in (text(r) or "") else repr(r))
        await step(
            "tools/call trigger-sampling-request (server request as input request)",
            lambda: client.call_tool("trigger-sampling-request", {"prompt": "hello", "maxTokens": 10}),
            lambda r: None if sampled == 1 and "sampled: 1 message" in (text(r) or "") else f"{r!r} after {sampled} samplings",
        )
        uri = "demo://resource/static/document/architecture.md"
        await step("resources/read", lambda: client.read_resource(uri), lambda r: None if str(r.contents[0].uri) == uri else repr(r))
        await step("prompts/get", lambda: client.get_prompt("args-prompt", {"city": "Lyon"}), lambda r: None if "Lyon" in repr(r.messages) else repr(r))
    print(f"{passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "--":
        sys.exit("usage: client26.py -- SERVER_COMMAND...")
    sys.exit(asyncio.run(main(sys.argv[2:])))
