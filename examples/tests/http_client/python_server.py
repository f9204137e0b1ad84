"""A tiny MCP server on the official Python SDK (mcp 2.x) over Streamable HTTP, for
examples/tests/http_client.rs: one tool, `count`, that reports progress.

    python python_server.py PORT [stateless]
"""

import sys

from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("python-count")


@server.tool()
async def count(to: int, ctx: Context) -> str:
    """Counts to `to`, reporting progress at each step."""
    for n in range(1, to + 1):
        await ctx.report_progress(n, to)
    return f"counted to {to}"


if __name__ == "__main__":
    port = int(sys.argv[1])
    stateless = len(sys.argv) > 2 and sys.argv[2] == "stateless"
    server.run("streamable-http", host="127.0.0.1", port=port, stateless_http=stateless)
