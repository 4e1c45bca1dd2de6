"""A 2026-07-28 MCP server built on the official Python SDK (`mcp` on PyPI), for
tests/tests/interop_modern.rs: Periscope against a modern-era server nobody here wrote.

    python modern_server.py stdio    # JSON-RPC lines on stdin/stdout
    python modern_server.py http     # Streamable HTTP on 127.0.0.1, a free port; prints its URL

`MCPServer` answers `server/discover` on every transport and serves both eras from the same
registrations: a 2026-07-28 request (per-request `_meta`, no `initialize`) gets the stateless
behaviour, an `initialize` gets the 2025 session. What it offers:

  tools      echo(message), add(a, b); book_table(party) asks for input in two rounds (the
             guest's name, then a confirmation naming that guest: an `input_required` result
             each time, the second only once the first is answered); touch_note() changes
             note://greeting and the tool list, which a `subscriptions/listen` stream hears
  resource   note://greeting (text)
  prompt     greet(name)
"""

import socket
import sys
from typing import Annotated

from pydantic import BaseModel, Field

from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve

mcp = MCPServer("periscope-interop-python", version="1.0.0", instructions="A fixture for Periscope's interop tests.")

NOTE = {"text": "hello from python", "touched": 0}


@mcp.tool()
def echo(message: str) -> str:
    """Echo the message back."""
    return f"Echo: {message}"


@mcp.tool()
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


class Guest(BaseModel):
    name: str = Field(description="Who is the table for?")


class Confirmation(BaseModel):
    confirm: bool = Field(description="Book it?")


async def ask_guest(party: int) -> Elicit[Guest]:
    # The question depends only on the arguments, so it renders the same on every round (the
    # SDK matches a recorded answer to the exact question).
    return Elicit(f"A table for {party}: whose name?", Guest)


async def ask_confirmation(
    party: int, guest: Annotated[Guest, Resolve(ask_guest)]
) -> Elicit[Confirmation]:
    # Depends on the first answer, so the SDK can only ask it in a second round.
    return Elicit(f"Book a table for {party} under {guest.name}?", Confirmation)


@mcp.tool()
async def book_table(
    party: int,
    guest: Annotated[Guest, Resolve(ask_guest)],
    confirmation: Annotated[Confirmation, Resolve(ask_confirmation)],
) -> str:
    """Book a table: asks for the guest's name, then for a confirmation (two rounds)."""
    if not confirmation.confirm:
        return "Not booked."
    return f"Booked a table for {party} under {guest.name}."


@mcp.tool()
async def touch_note(ctx: Context) -> str:
    """Change note://greeting and the tool list (listen streams hear both)."""
    NOTE["touched"] += 1
    NOTE["text"] = f"hello from python, touched {NOTE['touched']} time(s)"
    await ctx.notify_resource_updated("note://greeting")
    await ctx.notify_tools_changed()
    return f"touched {NOTE['touched']} time(s)"


@mcp.resource("note://greeting", mime_type="text/plain")
def greeting() -> str:
    """A short note."""
    return NOTE["text"]


@mcp.prompt()
def greet(name: str) -> str:
    """Greet someone by name."""
    return f"Please greet {name} warmly."


def serve_http() -> None:
    import anyio
    import uvicorn

    # Bind and listen first, so the port is known before uvicorn starts and a client that
    # connects at once waits in the backlog instead of being refused; then print the URL as the
    # first stdout line (the tests wait for it).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    app = mcp.streamable_http_app(host="127.0.0.1")
    config = uvicorn.Config(app, log_level="warning")
    print(f"http://127.0.0.1:{port}/mcp", flush=True)
    anyio.run(uvicorn.Server(config).serve, [sock])


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if mode == "stdio":
        mcp.run()
    elif mode == "http":
        serve_http()
    else:
        sys.exit(f"usage: {sys.argv[0]} stdio|http")
