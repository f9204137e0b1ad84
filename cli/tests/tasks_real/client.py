"""Records the Tasks extension's sessions between the FastMCP client and server.py, each through
`mcp-schema proxy --record` over stdio: `python client.py MCP_SCHEMA OUT_DIR`.

Sessions (one recording each): a task that completes, one that needs input (answered through
`tasks/update`), one cancelled, one failed by a JSON-RPC error, one whose tool reports `isError`;
and, from a scripted 2026-07-28 client speaking JSON-RPC lines itself, a client without the
extension and task ids the server never issued.
"""

import asyncio
import json
import os
import sys

from fastmcp import Client
from fastmcp.client.elicitation import ElicitResult
from fastmcp.client.transports import StdioTransport
from fastmcp.exceptions import ToolError
from fastmcp_tasks.client import call_tool_task

HERE = os.path.dirname(os.path.abspath(__file__))


def proxied(mcp_schema: str, out: str) -> StdioTransport:
    args = ["proxy", "--record", out, "--findings", out + ".findings", "--", sys.executable, os.path.join(HERE, "server.py")]
    return StdioTransport(command=mcp_schema, args=args, env=dict(os.environ), keep_alive=False)


async def answer_name(message, response_type, params, context):
    return ElicitResult(action="accept", content={"name": "Ada"})


async def completes(client: Client) -> None:
    result = await client.call_tool("add", {"a": 2, "b": 3})
    assert result.data == 5, result


async def needs_input(client: Client) -> None:
    result = await client.call_tool("greet", {})
    assert "Ada" in str(result.content), result


async def cancelled(client: Client) -> None:
    task = await call_tool_task(client, "wait", {"seconds": 30})
    await task.cancel()
    status = await task.status()
    assert status.status in ("cancelled", "working"), status


async def failed(client: Client) -> None:
    try:
        await client.call_tool("boom", {})
    except ToolError:
        return
    raise AssertionError("boom did not fail")


async def is_error(client: Client) -> None:
    result = await client.call_tool("refuse", {}, raise_on_error=False)
    assert result.is_error, result


SESSIONS = {"completed": completes, "input": needs_input, "cancelled": cancelled, "failed": failed, "is-error": is_error}

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": {"name": "scripted", "version": "1"}}
TASKS = {"extensions": {"io.modelcontextprotocol/tasks": {}}}


async def scripted(mcp_schema: str, out: str, requests: list) -> None:
    """Sends each request and waits for its answer: a 2026-07-28 client without an SDK."""
    args = ["proxy", "--record", out, "--findings", out + ".findings", "--", sys.executable, os.path.join(HERE, "server.py")]
    proc = await asyncio.create_subprocess_exec(mcp_schema, *args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    for i, (method, params, caps) in enumerate(requests, start=1):
        message = {"jsonrpc": "2.0", "id": i, "method": method, "params": dict(params, _meta=dict(META, **{"io.modelcontextprotocol/clientCapabilities": caps}))}
        proc.stdin.write((json.dumps(message) + "\n").encode())
        await proc.stdin.drain()
        while True:
            line = await asyncio.wait_for(proc.stdout.readline(), 30)
            if not line:
                raise AssertionError(f"the server closed before answering {method}")
            answer = json.loads(line)
            if answer.get("id") == i and "method" not in answer:
                break
    proc.stdin.close()
    await asyncio.wait_for(proc.wait(), 30)


SCRIPTED = {
    # Without the extension: the tool must run as a task, so the server refuses the call; tasks/get is refused too.
    "undeclared": [("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}, {}), ("tasks/get", {"taskId": "0f1e2d3c"}, {})],
    # Ids the server never issued.
    "unknown-ids": [
        ("tasks/get", {"taskId": "never-issued"}, TASKS),
        ("tasks/update", {"taskId": "never-issued", "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}}}, TASKS),
        ("tasks/cancel", {"taskId": "never-issued"}, TASKS),
    ],
}


async def main(mcp_schema: str, out_dir: str) -> None:
    os.makedirs(out_dir, exist_ok=True)
    for name, run in SESSIONS.items():
        async with Client(proxied(mcp_schema, os.path.join(out_dir, f"{name}.jsonl")), elicitation_handler=answer_name) as client:
            await run(client)
    for name, requests in SCRIPTED.items():
        await scripted(mcp_schema, os.path.join(out_dir, f"{name}.jsonl"), requests)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
