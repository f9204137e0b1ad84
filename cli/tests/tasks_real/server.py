"""A FastMCP server with the Tasks extension (fastmcp-tasks, in-memory backend) over stdio.

Every tool runs as a task (mode "required"): one completes, one asks for a name through
`tasks/update`, one waits to be cancelled, one fails with a JSON-RPC error, one reports `isError`.
"""

import asyncio

import mcp_types
from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.utilities.tasks import TaskConfig
from fastmcp_tasks import TasksExtension
from mcp.shared.exceptions import MCPError

mcp = FastMCP("tasks-peer")
mcp.add_extension(TasksExtension(url="memory://"))
TASK = TaskConfig(mode="required")


@mcp.tool(task=TASK)
async def add(a: int, b: int) -> int:
    """Adds two numbers, slowly."""
    await asyncio.sleep(0.2)
    return a + b


@mcp.tool(task=TASK)
async def greet(ctx: Context) -> str:
    """Asks for a name, then greets it."""
    answers = ctx.input_responses or {}
    answer = answers.get("name")
    if answer is None:
        ask = mcp_types.ElicitRequest(
            params=mcp_types.ElicitRequestFormParams(
                message="Your name?",
                requested_schema={"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
            )
        )
        return mcp_types.InputRequiredResult(input_requests={"name": ask})
    content = getattr(answer, "content", None) or (answer.get("content") if isinstance(answer, dict) else None) or {}
    return f"Hello, {content.get('name', 'stranger')}!"


@mcp.tool(task=TASK)
async def wait(seconds: float) -> str:
    """Sleeps; the client cancels it first."""
    await asyncio.sleep(seconds)
    return "woke"


@mcp.tool(task=TASK)
async def boom() -> str:
    """Fails with a JSON-RPC error: the task is `failed`."""
    raise MCPError(code=-32603, message="the backend is down")


@mcp.tool(task=TASK)
async def refuse() -> str:
    """Reports a tool error: the task is `completed` with `isError`."""
    raise ToolError("refusing on purpose")


if __name__ == "__main__":
    mcp.run(transport="stdio", show_banner=False)
