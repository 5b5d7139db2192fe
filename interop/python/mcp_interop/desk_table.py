"""The seed's refund-desk table (shared/spec/refund-desk.md), as data a client walks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from mcp_types import ElicitResult

Topic = Literal["scope", "restock"]


def accept(**content: str | bool) -> ElicitResult:
    """An accepted form answer."""
    return ElicitResult(action="accept", content=dict(content))


DECLINE = ElicitResult(action="decline")


@dataclass(frozen=True)
class Call:
    """One row of the table."""

    order_id: str
    reason: str
    answers: dict[Topic, ElicitResult] = field(default_factory=dict)
    receipt: dict[str, object] | None = None
    error_contains: str | None = None
    legs: int = 1
    pushes: int = 0
    counts_after: tuple[int, int] = (0, 0)


CALLS: tuple[Call, ...] = (
    Call("ORD-7001", "download corrupted", receipt={"refunded_cents": 1500, "restocked": False}),
    Call(
        "ORD-7002",
        "arrived broken",
        {"scope": accept(full=True), "restock": accept(restock=True)},
        receipt={"refunded_cents": 4800, "restocked": True},
        legs=3,
        pushes=2,
        counts_after=(1, 1),
    ),
    Call(
        "ORD-7002",
        "wrong colour",
        {"scope": accept(full=False, sku="canvas-tote"), "restock": DECLINE},
        receipt={"refunded_cents": 2400, "restocked": False},
        legs=3,
        pushes=2,
        counts_after=(2, 2),
    ),
    Call(
        "ORD-7002",
        "lost parcel",
        {"scope": accept(full=False, sku="mystery-hat")},
        error_contains="order has no item 'mystery-hat'",
        legs=2,
        pushes=1,
        counts_after=(3, 2),
    ),
    Call(
        "ORD-7002",
        "changed mind",
        {"scope": DECLINE},
        error_contains="Resolver for parameter 'scope' could not resolve: elicitation was decline",
        legs=2,
        pushes=1,
        counts_after=(4, 2),
    ),
    Call("ORD-9999", "typo", error_contains="unknown order 'ORD-9999'", counts_after=(4, 2)),
)


def topic_of(requested_schema: dict[str, object]) -> Topic:
    """`scope` when the form has a `full` field, otherwise `restock` (the seed's rule)."""
    properties = requested_schema.get("properties")
    return "scope" if isinstance(properties, dict) and "full" in properties else "restock"


def expected_receipt(call: Call) -> dict[str, object] | None:
    """The full structured content a receipt row expects."""
    if call.receipt is None:
        return None
    return {"order_id": call.order_id, "reason": call.reason, **call.receipt}
