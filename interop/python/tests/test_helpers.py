"""Unit tests of the interop helpers (the seed's topic rule, the table's receipts, the summary line)."""

from __future__ import annotations

from mcp_interop.desk_table import CALLS, expected_receipt, topic_of
from mcp_interop.tally import Tally


def test_a_form_with_full_is_the_scope_question() -> None:
    assert topic_of({"properties": {"full": {"type": "boolean"}, "sku": {"type": "string"}}}) == "scope"
    assert topic_of({"properties": {"restock": {"type": "boolean"}}}) == "restock"
    assert topic_of({}) == "restock"


def test_receipts_carry_the_call_id_and_reason() -> None:
    assert expected_receipt(CALLS[1]) == {
        "order_id": "ORD-7002",
        "reason": "arrived broken",
        "refunded_cents": 4800,
        "restocked": True,
    }
    assert expected_receipt(CALLS[5]) is None


def test_the_table_ends_at_scope_4_restock_2() -> None:
    assert [call.counts_after for call in CALLS][-1] == (4, 2)
    assert sum(call.error_contains is not None for call in CALLS) == 3


def test_the_summary_counts_each_check() -> None:
    tally = Tally("python->ts/refund-desk stdio 2026-07-28")
    tally.check(True, "one")
    tally.check(False, "two")
    assert tally.summary() == "interop python->ts/refund-desk stdio 2026-07-28: 1 passed, 1 failed"
    assert tally.failures == ["two"]
