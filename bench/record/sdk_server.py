"""A small server on the official Python SDK (`mcp` 2.x, `MCPServer`), for recording 2026-07-28 traffic
between the official SDKs (`bench/record/sdks.sh`). Everything it sends is short: tool results echo the
call's own data. Tools that need the client's input (elicitation, sampling, roots) use the SDK's resolvers,
which at 2026-07-28 answer with an `input_required` result and resume on the client's retry.

    python sdk_server.py        # stdio
"""

from typing import Annotated

from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.resolve import Elicit, ListRoots, Resolve, Sample
from mcp.types import Completion, ListRootsResult, SamplingMessage, TextContent, CreateMessageResult

server = MCPServer("bench-python-server", version="0.1.0", instructions="Arithmetic, notes and a greeting.")


class Sum(BaseModel):
    total: float
    terms: int


class Contact(BaseModel):
    name: str
    age: int


@server.tool(description="Echoes the message.")
def echo(message: str) -> str:
    return message


@server.tool(description="Adds numbers.")
def add(numbers: list[float]) -> Sum:
    return Sum(total=sum(numbers), terms=len(numbers))


@server.tool(description="Counts to n, reporting progress.")
async def count(n: int, ctx: Context) -> str:
    for i in range(1, n + 1):
        await ctx.report_progress(i, n, f"step {i}")
    return f"counted to {n}"


@server.tool(description="Fails on purpose.")
def fail(reason: str) -> str:
    raise ValueError(reason)


def ask_contact() -> Elicit[Contact]:
    return Elicit("Who should be greeted?", Contact)


@server.tool(description="Greets a contact the user names.")
def greet(contact: Annotated[Contact, Resolve(ask_contact)]) -> str:
    return f"Hello {contact.name} ({contact.age})"


def ask_model(question: str) -> Sample:
    return Sample([SamplingMessage(role="user", content=TextContent(type="text", text=question))], max_tokens=40)


@server.tool(description="Asks the client's model a question.")
def ask(question: str, answer: Annotated[CreateMessageResult, Resolve(ask_model)]) -> str:
    return answer.content.text if isinstance(answer.content, TextContent) else "?"


def roots() -> ListRoots:
    return ListRoots()


@server.tool(description="Lists the client's roots.")
def where(found: Annotated[ListRootsResult, Resolve(roots)]) -> list[str]:
    return [str(r.uri) for r in found.roots]


@server.resource("note://today", mime_type="text/plain", description="Today's note.")
def today() -> str:
    return "water the plants"


@server.resource("note://{day}", mime_type="text/plain", description="The note of a day.")
def note(day: str) -> str:
    return f"nothing planned on {day}"


@server.prompt(description="Asks for a summary of a topic.")
def summarize(topic: str, words: str = "50") -> str:
    return f"Summarize {topic} in at most {words} words."


@server.completion()
async def complete(ref, argument, context):
    days = ["monday", "tuesday", "wednesday", "thursday", "friday"]
    return Completion(values=[d for d in days if d.startswith(argument.value)])


if __name__ == "__main__":
    server.run()
