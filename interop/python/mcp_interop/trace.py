"""W3C trace context from the Python SDK client to our server, and the check of our exported spans.

The SDK's client injects the current OpenTelemetry context into every request's `params._meta`
(`mcp/shared/jsonrpc_dispatcher.py`, `send_raw_request`: `inject_trace_context(out_meta)` inside
its "MCP send" CLIENT span, through the global propagator: W3C `traceparent`). With only the
OpenTelemetry API installed (no SDK), that span is the current span passed through, so each call
here runs under a span context made for it and set current with the API's `use_span`; the SDK puts
it in `_meta` by itself. Our server, run with `--otel file:PATH`, writes its spans to PATH as JSON
lines (`examples/stories/lib/spans.ts`), and `check_traces` reads them back.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags, use_span

SERVER_KIND = 1
"""`SpanKind.SERVER` in the OpenTelemetry JS API, as our span lines carry it."""


@dataclass
class TracedCall:
    """One client call made under its own trace context, and what our server should export for it."""

    label: str
    method: str
    trace_id: str
    span_id: str
    requests: int = 1


def new_ids() -> tuple[str, str]:
    """A random, valid (non-zero) W3C trace id (32 hex) and span id (16 hex)."""
    return f"{secrets.randbits(127) + 1:032x}", f"{secrets.randbits(63) + 1:016x}"


@contextmanager
def traced(label: str, method: str, calls: list[TracedCall]) -> Iterator[TracedCall]:
    """Runs the block with a fresh span context current (what the SDK client injects), recording it in `calls`."""
    trace_id, span_id = new_ids()
    call = TracedCall(label, method, trace_id, span_id)
    calls.append(call)
    context = SpanContext(int(trace_id, 16), int(span_id, 16), is_remote=False, trace_flags=TraceFlags(TraceFlags.SAMPLED))
    with use_span(NonRecordingSpan(context), end_on_exit=False):
        yield call


def read_span_lines(path: Path) -> list[dict[str, Any]]:
    """The span lines our server wrote to `path` (none when it wrote nothing)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def check_traces(spans: list[dict[str, Any]], calls: list[TracedCall]) -> list[tuple[bool, str]]:
    """Per call: our SERVER spans in its trace are one per request it made, all children of the client's span."""
    checks: list[tuple[bool, str]] = []
    for call in calls:
        ours = [span for span in spans if span.get("kind") == SERVER_KIND and span.get("traceId") == call.trace_id]
        parents = sorted({str(span.get("parentSpanId")) for span in ours})
        methods = sorted({str(span.get("attributes", {}).get("mcp.method.name")) for span in ours})
        ok = len(ours) == call.requests and parents == [call.span_id] and methods == [call.method]
        checks.append(
            (
                ok,
                f"{call.label}: {call.requests} {call.method} SERVER span(s) in the client's trace {call.trace_id}, "
                f"children of its span {call.span_id} (saw {len(ours)}, parents {parents}, methods {methods})",
            )
        )
    return checks
