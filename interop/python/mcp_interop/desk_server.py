"""The refund desk written on the Python SDK's MCPServer + Resolve (written here, to the seed's contract).

Run: python -m mcp_interop.desk_server --port N [--probes]  (HTTP on /mcp, both eras; prints
`listening on <url>`). With `--probes` it also serves the cross-SDK probes: `pair` (two questions in
one round), `context_probe` (a `Sample` and a `ListRoots`) and `link` (a URL-mode question).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Annotated

import uvicorn
from mcp.server.mcpserver import (
    AcceptedElicitation,
    Context,
    Elicit,
    ElicitationResult,
    ListRoots,
    MCPServer,
    Resolve,
    Sample,
)
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CreateMessageResult, ListRootsResult, SamplingMessage, TextContent
from pydantic import BaseModel

ORDERS: dict[str, list[tuple[str, int, bool]]] = {
    "ORD-7001": [("ebook-fieldnotes", 1500, False)],
    "ORD-7002": [("enamel-mug", 1800, True), ("canvas-tote", 2400, True), ("sticker-pack", 600, False)],
}


class Scope(BaseModel):
    """What to refund: the whole order, or one SKU typed by the human."""

    full: bool
    sku: str | None = None


class Restock(BaseModel):
    """Whether the physical items go back to stock."""

    restock: bool


class Name(BaseModel):
    """A name answer (the `pair` probe)."""

    name: str


class Colour(BaseModel):
    """A colour answer (the `pair` probe)."""

    colour: str


class Receipt(BaseModel):
    """The refund's structured result."""

    order_id: str
    refunded_cents: int
    restocked: bool
    reason: str


Order = list[tuple[str, int, bool]]


def load_order(order_id: str) -> Order:
    """The order's lines, or a tool error for an unknown id."""
    order = ORDERS.get(order_id)
    if order is None:
        raise ToolError(f"unknown order '{order_id}'")
    return order


def refund_scope(order_id: str, order: Annotated[Order, Resolve(load_order)]) -> Scope | Elicit[Scope]:
    """A one-line order is refunded whole; otherwise the human picks whole order or one SKU."""
    if len(order) == 1:
        return Scope(full=True)
    skus = ", ".join(sku for sku, _, _ in order)
    return Elicit(f"{order_id} has several items ({skus}). Refund the whole order, or one SKU?", Scope)


def scoped(order: Order, scope: Scope) -> Order:
    """The lines a scope covers; a typed SKU is checked against the order."""
    if scope.full:
        return order
    lines = [line for line in order if line[0] == scope.sku]
    if not lines:
        raise ToolError(f"order has no item '{scope.sku}'")
    return lines


def refund_amount(
    order: Annotated[Order, Resolve(load_order)], scope: Annotated[Scope, Resolve(refund_scope)]
) -> int:
    """The cents the scope covers."""
    return sum(cents for _, cents, _ in scoped(order, scope))


def ask_restock(
    order: Annotated[Order, Resolve(load_order)], scope: Annotated[Scope, Resolve(refund_scope)]
) -> Restock | Elicit[Restock]:
    """Asks about restocking only when a physical line is in scope."""
    physical = [sku for sku, _, is_physical in scoped(order, scope) if is_physical]
    if not physical:
        return Restock(restock=False)
    return Elicit(f"The refund includes physical items ({', '.join(physical)}). Return them to stock?", Restock)


def ask_name() -> Elicit[Name]:
    """The first of two independent questions."""
    return Elicit("What is your name?", Name)


def ask_colour() -> Elicit[Colour]:
    """The second of two independent questions (same round as the name)."""
    return Elicit("What is your favourite colour?", Colour)


def sample_haiku() -> Sample:
    """Asks the client's model for a line."""
    return Sample([SamplingMessage(role="user", content=TextContent(type="text", text="say hi"))], max_tokens=20)


def list_roots() -> ListRoots:
    """Asks the client for its roots."""
    return ListRoots()


def build_server(probes: bool) -> MCPServer:
    """The Python desk; with `probes`, also the cross-SDK probe tools."""
    mcp = MCPServer("python-refund-desk")

    @mcp.tool()
    def refund_order(
        order_id: str,
        reason: str,
        cents: Annotated[int, Resolve(refund_amount)],
        restock: Annotated[ElicitationResult[Restock], Resolve(ask_restock)],
    ) -> Receipt:
        """Refunds what the order record says."""
        restocked = isinstance(restock, AcceptedElicitation) and restock.data.restock
        return Receipt(order_id=order_id, refunded_cents=cents, restocked=restocked, reason=reason)

    if probes:
        add_probes(mcp)
    return mcp


def add_probes(mcp: MCPServer) -> None:
    """`pair`, `context_probe` (Resolve) and `link` (a URL-mode push through the Context)."""

    @mcp.tool()
    def pair(
        name: Annotated[Name, Resolve(ask_name)], colour: Annotated[Colour, Resolve(ask_colour)]
    ) -> str:
        """Two independent questions."""
        return f"{name.name} likes {colour.colour}"

    @mcp.tool()
    def context_probe(
        sampled: Annotated[CreateMessageResult, Resolve(sample_haiku)],
        roots: Annotated[ListRootsResult, Resolve(list_roots)],
    ) -> str:
        """A sample and the roots."""
        text = sampled.content.text if isinstance(sampled.content, TextContent) else "?"
        return f"sampled '{text}'; roots {','.join(str(root.uri) for root in roots.roots)}"

    @mcp.tool()
    async def link(provider: str, ctx: Context) -> str:
        """Sends the person to a sign-in URL (Resolve's `Elicit` is form-only, so this uses the Context)."""
        answer = await ctx.elicit_url(f"Sign in to {provider}", f"https://example.com/signin/{provider}", f"link-{provider}")
        return f"linked {provider}" if answer.action == "accept" else f"link {answer.action}"


async def serve(port: int, probes: bool) -> None:
    """Serves the desk over HTTP on 127.0.0.1 and prints its URL once it accepts connections."""
    app = build_server(probes).streamable_http_app()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            await task
            return
        await asyncio.sleep(0.02)
    bound = server.servers[0].sockets[0].getsockname()[1]
    print(f"python-desk listening on http://127.0.0.1:{bound}/mcp", file=sys.stderr, flush=True)
    await task


def main() -> None:
    """Command line: --port N (0 picks a free port), --probes."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--probes", action="store_true")
    args = parser.parse_args()
    asyncio.run(serve(args.port, args.probes))


if __name__ == "__main__":
    main()
