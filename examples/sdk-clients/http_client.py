"""The official Python SDK (`mcp` 2.x, pinned in requirements.txt) over Streamable HTTP against
`http_server` (the two tools): `legacy` is the session era (`initialize`, Mcp-Session-Id), a
version such as `2026-07-28` sends each request on its own. Lists the tools, calls `convert`, and
calls `count` with progress. Prints one line per step; exits non-zero on any failure.

    python http_client.py URL legacy|2026-07-28
"""

import asyncio
import sys

from mcp import Client


async def main(url: str, mode: str) -> None:
    async with Client(url, mode=mode, raise_exceptions=True) as client:
        tools = await client.list_tools()
        names = sorted(t.name for t in tools.tools)
        print("tools:", ", ".join(names))
        assert names == ["convert", "count"], names
        converted = await client.call_tool("convert", {"value": 1, "from": "miles", "to": "meters"})
        print("convert:", converted.structured_content)
        assert converted.structured_content == {"value": 1609.344, "unit": "meters"}, converted
        steps = []

        async def progress(done, total, message):
            steps.append(done)

        counted = await client.call_tool("count", {"to": 3, "delayMs": 10}, progress_callback=progress)
        print("count:", counted.structured_content, "progress:", steps)
        assert counted.structured_content == {"counted": 3}, counted
        assert steps == [1, 2, 3], steps
    print("ok")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: python http_client.py URL legacy|2026-07-28", file=sys.stderr)
        sys.exit(2)
    asyncio.run(main(sys.argv[1], sys.argv[2]))
