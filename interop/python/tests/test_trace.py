"""Unit tests of the trace-context helpers: what the SDK client injects, and the check of our spans."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from opentelemetry.propagate import inject
from opentelemetry.trace import get_current_span

from mcp_interop.trace import SERVER_KIND, TracedCall, check_traces, new_ids, read_span_lines, traced


def test_ids_are_valid_w3c_ids() -> None:
    trace_id, span_id = new_ids()
    assert len(trace_id) == 32 and len(span_id) == 16
    assert int(trace_id, 16) != 0 and int(span_id, 16) != 0
    assert trace_id == trace_id.lower()


def test_the_traced_context_is_what_the_propagator_injects() -> None:
    calls: list[TracedCall] = []
    with traced("tools/list", "tools/list", calls) as call:
        assert get_current_span().get_span_context().trace_id == int(call.trace_id, 16)
        meta: dict[str, Any] = {}
        inject(meta)  # what the SDK's inject_trace_context does with a request's _meta
    assert meta == {"traceparent": f"00-{call.trace_id}-{call.span_id}-01"}
    assert calls == [call]
    assert not get_current_span().get_span_context().is_valid


def span(trace_id: str, parent: str, method: str, kind: int = SERVER_KIND) -> dict[str, Any]:
    return {"traceId": trace_id, "parentSpanId": parent, "kind": kind, "attributes": {"mcp.method.name": method}}


def test_check_traces_wants_one_server_span_per_request_under_the_client_span() -> None:
    call = TracedCall("call", "tools/call", "a" * 32, "b" * 16, requests=2)
    good = [span(call.trace_id, call.span_id, "tools/call"), span(call.trace_id, call.span_id, "tools/call")]
    internal = span(call.trace_id, "c" * 16, "tools/call", kind=0)
    assert [ok for ok, _ in check_traces([*good, internal], [call])] == [True]
    assert [ok for ok, _ in check_traces(good[:1], [call])] == [False]
    assert [ok for ok, _ in check_traces([good[0], span(call.trace_id, "d" * 16, "tools/call")], [call])] == [False]
    assert [ok for ok, _ in check_traces([good[0], span(call.trace_id, call.span_id, "tools/list")], [call])] == [False]
    assert [ok for ok, _ in check_traces([], [call])] == [False]


def test_span_lines_are_read_back(tmp_path: Path) -> None:
    path = tmp_path / "spans.jsonl"
    assert read_span_lines(path) == []
    path.write_text(json.dumps(span("a" * 32, "b" * 16, "tools/list")) + "\n\n", encoding="utf-8")
    assert read_span_lines(path) == [span("a" * 32, "b" * 16, "tools/list")]
