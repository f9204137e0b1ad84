"""A 2026-07-28 client on the official Python SDK (`mcp` 2.x, pinned in requirements.txt).

Starts the server given on the command line over stdio, lets the SDK negotiate (`mode="auto"`:
`server/discover`, falling back to `initialize`), then lists and calls the tools, reads the
resources and gets the prompts. Prints one line per step; exits non-zero on any failure.

    python client.py SERVER [ARGS...]
"""

import asyncio
import sys

from mcp import Client, StdioServerParameters


async def main(command: list[str]) -> None:
    server = StdioServerParameters(command=command[0], args=command[1:])
    async with Client(server, mode="auto", raise_exceptions=True) as client:
        tools = await client.list_tools()
        print("tools:", ", ".join(t.name for t in tools.tools))
        echo = await client.call_tool("echo", {"message": "hello from python"})
        print("echo:", echo.content[0].text)
        weather = await client.call_tool("get-structured-content", {"location": "Oslo"})
        print("structured:", weather.structured_content)
        assert weather.structured_content == {"temperature": 21.5, "conditions": "Sunny"}, weather
        links = await client.call_tool("get-resource-links", {"count": 2})
        print("content types:", [c.type for c in links.content])
        resources = await client.list_resources()
        for resource in resources.resources:
            read = await client.read_resource(resource.uri)
            print("read:", resource.uri, len(read.contents[0].text), "characters")
        templates = await client.list_resource_templates()
        print("templates:", [t.uri_template for t in templates.resource_templates])
        prompts = await client.list_prompts()
        print("prompts:", ", ".join(p.name for p in prompts.prompts))
        prompt = await client.get_prompt("args-prompt", {"city": "Oslo"})
        print("prompt:", prompt.messages[0].content.text)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: client.py SERVER [ARGS...]")
    asyncio.run(main(sys.argv[1:]))
