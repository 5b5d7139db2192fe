"""Python SDK clients driving mcp-resolve's story servers (the seed's assertions, written here).

    python -m mcp_interop.client <story> --era modern|legacy --label L [--spans PATH] (--url URL | --stdio CMD ARG...)

Stories: `desk` (the refund-desk table), `gate` (a client without elicitation), `mrtr`,
`legacy-elicitation`, `extras` (several questions in one round, sample, listRoots: the conformance fixture). On 2026-07-28 the client drives the `input_required` rounds itself, so it sees
every leg, batch and `requestState` on the wire; on 2025-11-25 it counts the elicitation pushes.
With `--spans PATH` (our server started with `--otel file:PATH`), every call runs under a trace
context of its own, which the SDK client injects into `params._meta`, and the run checks that our
SERVER spans continue it (`trace.py`). Prints `interop <label>: N passed, M failed` last and exits 1
on any failure.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import FileUrl

from mcp import Client, MCPError
from mcp.client.session import ClientRequestContext
from mcp.client.stdio import StdioServerParameters
from mcp_types import (
    CallToolResult,
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
    InputRequiredResult,
    InputResponse,
    InputResponses,
    ListRootsRequest,
    ListRootsResult,
    ListToolsResult,
    Root,
    TextContent,
)

from .desk_table import CALLS, Topic, expected_receipt, topic_of
from .tally import Tally
from .trace import TracedCall, check_traces, read_span_lines, traced

MODERN = "2026-07-28"
SAMPLED = CreateMessageResult(role="assistant", content=TextContent(type="text", text="Paris"), model="interop-model")
ROOTS = ListRootsResult(roots=[Root(uri=FileUrl("file:///interop/workspace"), name="workspace")])
Answer = Callable[[ElicitRequestParams], ElicitResult]


@dataclass
class Outcome:
    """What one tool call showed on the wire."""

    result: CallToolResult
    legs: int
    batches: list[list[str]]
    pushes: int


def text_of(result: CallToolResult) -> str:
    """The result's text blocks joined."""
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


class Driver:
    """One connection; answers every question through `answer`, counting legs and pushes."""

    def __init__(self, target: StdioServerParameters | str, era: str, answer: Answer | None, traces: list[TracedCall] | None = None) -> None:
        self.era = era
        self.answer = answer
        self.traces = traces
        self.pushes = 0
        self.client = Client(
            target,
            mode=MODERN if era == "modern" else "legacy",
            elicitation_callback=self._pushed if answer is not None else None,
            sampling_callback=self._sampled,
            list_roots_callback=self._roots,
        )

    async def _pushed(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.pushes += 1
        return self._answer(params)

    async def _sampled(self, context: ClientRequestContext, params: CreateMessageRequestParams) -> CreateMessageResult:
        self.pushes += 1
        return SAMPLED

    async def _roots(self, context: ClientRequestContext) -> ListRootsResult:
        self.pushes += 1
        return ROOTS

    def _answer(self, params: ElicitRequestParams) -> ElicitResult:
        if self.answer is None:
            raise RuntimeError("this client declared no elicitation, yet was asked")
        return self.answer(params)

    def respond(self, key: str, request: object) -> tuple[str, InputResponse]:
        """One embedded input request answered: what it asked, and the response."""
        if isinstance(request, ElicitRequest):
            params = request.params
            mode = f" [url {params.url}]" if isinstance(params, ElicitRequestURLParams) else ""
            return params.message + mode, self._answer(params)
        if isinstance(request, CreateMessageRequest):
            return f"sampling:{key}", SAMPLED
        if isinstance(request, ListRootsRequest):
            return f"roots:{key}", ROOTS
        raise RuntimeError(f"unexpected input request {key}: {request}")

    async def list_tools(self) -> ListToolsResult:
        """Lists the tools (under a trace context of its own when tracing)."""
        if self.traces is None:
            return await self.client.list_tools()
        with traced("tools/list", "tools/list", self.traces):
            return await self.client.list_tools()

    async def call(self, name: str, arguments: dict[str, Any]) -> Outcome:
        """Calls a tool (under a trace context of its own when tracing, one request per leg)."""
        if self.traces is None:
            return await self._call(name, arguments)
        with traced(f"tools/call {name} #{len(self.traces)}", "tools/call", self.traces) as call:
            seen = await self._call(name, arguments)
            call.requests = seen.legs
            return seen

    async def _call(self, name: str, arguments: dict[str, Any]) -> Outcome:
        """Calls a tool; on 2026-07-28 drives the rounds by hand to see each leg."""
        self.pushes = 0
        if self.era != "modern":
            return Outcome(await self.client.call_tool(name, arguments), 1, [], self.pushes)
        session = self.client.session
        step = await session.call_tool(name, arguments, allow_input_required=True)
        legs, batches = 1, []
        while isinstance(step, InputRequiredResult):
            requests = step.input_requests or {}
            batch: list[str] = []
            responses: InputResponses = {}
            for key, request in requests.items():
                asked, responses[key] = self.respond(key, request)
                batch.append(asked)
            batches.append(batch)
            step = await session.call_tool(
                name, arguments, input_responses=responses, request_state=step.request_state, allow_input_required=True
            )
            legs += 1
        if not isinstance(step, CallToolResult):
            raise RuntimeError(f"unexpected result {step}")
        return Outcome(step, legs, batches, 0)


async def desk(driver: Driver, tally: Tally, script: dict[Topic, ElicitResult], counts: dict[Topic, int]) -> None:
    """The refund-desk table, row by row."""
    tools = (await driver.list_tools()).tools
    schema = tools[0].input_schema if tools else {}
    tally.check([tool.name for tool in tools] == ["refund_order"], "one tool: refund_order")
    tally.check(
        sorted(schema.get("properties", {})) == ["order_id", "reason"] and sorted(schema.get("required", [])) == ["order_id", "reason"],
        "properties and required are exactly {order_id, reason}",
    )
    for index, call in enumerate(CALLS, start=1):
        script.clear()
        script.update(call.answers)
        seen = await driver.call("refund_order", {"order_id": call.order_id, "reason": call.reason})
        result, text = seen.result, text_of(seen.result)
        receipt = expected_receipt(call)
        if receipt is not None:
            tally.check(not result.is_error and result.structured_content == receipt, f"[{index}] receipt {receipt} (got {result.structured_content or text})")
        else:
            tally.check(result.is_error and str(call.error_contains) in text, f"[{index}] error has {call.error_contains!r} (got {text!r})")
        if driver.era == "modern":
            tally.check(seen.legs == call.legs, f"[{index}] {call.legs} leg(s) (saw {seen.legs})")
            tally.check(all(len(batch) == 1 for batch in seen.batches), f"[{index}] one question per round (saw {seen.batches})")
        else:
            tally.check(seen.pushes == call.pushes, f"[{index}] {call.pushes} push(es) (saw {seen.pushes})")
        tally.check((counts["scope"], counts["restock"]) == call.counts_after, f"[{index}] counts {call.counts_after} (saw {counts})")


async def gate(driver: Driver, tally: Tally) -> None:
    """A client that declared no elicitation asks for a call that needs it."""
    try:
        seen = await driver.call("refund_order", {"order_id": "ORD-7002", "reason": "no ui"})
        tally.check(False, f"-32021 for a call that must ask (got {'error' if seen.result.is_error else 'result'}: {text_of(seen.result)!r})")
    except MCPError as error:
        data = error.error.data if isinstance(error.error.data, dict) else {}
        required = data.get("requiredCapabilities", {})
        tally.check(error.code == -32021, f"-32021 for a call that must ask (got {error.code} {error.error.message!r})")
        tally.check("elicitation" in required, f"data.requiredCapabilities names elicitation (got {data})")
    seen = await driver.call("refund_order", {"order_id": "ORD-7001", "reason": "no ui"})
    tally.check(seen.result.structured_content is not None and seen.result.structured_content.get("refunded_cents") == 1500, "a call that asks nothing still works")


async def mrtr(driver: Driver, tally: Tally, confirm: list[ElicitResult]) -> None:
    """deploy(env): accept+true, decline, and a tampered requestState."""
    confirm[:] = [ElicitResult(action="accept", content={"confirm": True})]
    seen = await driver.call("deploy", {"env": "staging"})
    tally.check(text_of(seen.result) == "deployed to staging" and seen.legs == 2, f"accept → 'deployed to staging' in 2 legs (got {text_of(seen.result)!r}, {seen.legs})")
    confirm[:] = [ElicitResult(action="decline")]
    seen = await driver.call("deploy", {"env": "prod"})
    tally.check(text_of(seen.result) == "deployment to prod cancelled", f"decline → 'deployment to prod cancelled' (got {text_of(seen.result)!r})")
    first = await driver.client.session.call_tool("deploy", {"env": "prod"}, allow_input_required=True)
    state = first.request_state if isinstance(first, InputRequiredResult) else None
    tally.check(state is not None and "awaiting" not in state, "the requestState is opaque on the wire")
    keys = list(first.input_requests or {}) if isinstance(first, InputRequiredResult) else []
    key = keys[0] if keys else "confirm"
    tampered = (state or "x")[:-2] + ("AA" if not (state or "x").endswith("AA") else "BB")
    try:
        await driver.client.session.call_tool(
            "deploy", {"env": "prod"}, input_responses={key: ElicitResult(action="accept", content={"confirm": True})}, request_state=tampered, allow_input_required=True
        )
        tally.check(False, "a tampered requestState is refused")
    except MCPError as error:
        tally.check(
            error.code == -32602 and error.error.message == "Invalid or expired requestState" and error.error.data == {"reason": "invalid_request_state"},
            f"tampered → -32602 'Invalid or expired requestState' {{reason: invalid_request_state}} (got {error.code} {error.error.message!r} {error.error.data})",
        )


async def legacy_elicitation(driver: Driver, tally: Tally, urls: list[str]) -> None:
    """register_user (a form) and link_account (a URL-mode question): pushes on 2025-11-25, a round on 2026-07-28."""

    def asked_once(seen: Outcome) -> bool:
        return seen.legs == 2 and seen.pushes == 0 if driver.era == "modern" else seen.pushes == 1

    how = "in 2 legs" if driver.era == "modern" else "1 push"
    seen = await driver.call("register_user", {})
    tally.check(text_of(seen.result) == "registered ada (plan: pro)" and asked_once(seen), f"register_user → 'registered ada (plan: pro)', {how} (got {text_of(seen.result)!r}, {seen.legs} leg(s), {seen.pushes} push(es))")
    seen = await driver.call("link_account", {"provider": "github"})
    tally.check(text_of(seen.result) == "linked github" and asked_once(seen), f"link_account → 'linked github', {how} (got {text_of(seen.result)!r}, {seen.legs} leg(s), {seen.pushes} push(es))")
    tally.check(len(urls) == 1 and urls[0].startswith("https://example.com/"), f"the URL-mode question points under https://example.com/ (got {urls})")


async def extras(driver: Driver, tally: Tally) -> None:
    """The conformance fixture's three questions (elicit, sample, roots): one round on 2026-07-28."""
    seen = await driver.call("test_input_required_result_multiple_inputs", {})
    text = text_of(seen.result)
    tally.check("Hello, ada!" in text and "Paris" in text and "workspace" in text, f"name, sample and roots reach the tool (got {text!r})")
    if driver.era == "modern":
        tally.check(seen.legs == 2 and len(seen.batches) == 1 and len(seen.batches[0]) == 3, f"three questions in one round (saw {seen.batches})")
    else:
        tally.check(seen.pushes == 3, f"three pushes: elicitation, sampling, roots (saw {seen.pushes})")
    seen = await driver.call("test_input_required_result_multi_round", {})
    tally.check(text_of(seen.result) == "ada likes blue.", f"a question built from an earlier answer (got {text_of(seen.result)!r})")
    if driver.era == "modern":
        tally.check(seen.legs == 3, f"the dependent question comes a round later: 3 legs (saw {seen.legs})")


def desk_answers(script: dict[Topic, ElicitResult], counts: dict[Topic, int]) -> Answer:
    """Answers from the row's script, counting questions per topic."""

    def answer(params: ElicitRequestParams) -> ElicitResult:
        topic = topic_of(params.requested_schema if isinstance(params, ElicitRequestFormParams) else {})
        counts[topic] += 1
        return script.pop(topic, ElicitResult(action="cancel"))

    return answer


async def run(story: str, target: StdioServerParameters | str, era: str, tally: Tally, spans: Path | None = None) -> None:
    """Connects and walks one story; with `spans`, checks that our server's spans continue each call's trace."""
    script: dict[Topic, ElicitResult] = {}
    counts: dict[Topic, int] = {"scope": 0, "restock": 0}
    confirm: list[ElicitResult] = []
    urls: list[str] = []

    def story_answer(params: ElicitRequestParams) -> ElicitResult:
        if isinstance(params, ElicitRequestFormParams):
            if "confirm" in params.requested_schema.get("properties", {}):
                return confirm.pop(0) if confirm else ElicitResult(action="cancel")
            properties = params.requested_schema.get("properties", {})
            if "color" in properties:
                return ElicitResult(action="accept", content={"color": "blue"})
            if "name" in properties:
                return ElicitResult(action="accept", content={"name": "ada"})
            return ElicitResult(action="accept", content={"username": "ada", "plan": "pro"})
        urls.append(params.url)
        return ElicitResult(action="accept")

    answers: dict[str, Answer | None] = {"desk": desk_answers(script, counts), "gate": None}
    driver = Driver(target, era, answers.get(story, story_answer), [] if spans is not None else None)
    steps: dict[str, Callable[[], Awaitable[None]]] = {
        "desk": lambda: desk(driver, tally, script, counts),
        "gate": lambda: gate(driver, tally),
        "mrtr": lambda: mrtr(driver, tally, confirm),
        "legacy-elicitation": lambda: legacy_elicitation(driver, tally, urls),
        "extras": lambda: extras(driver, tally),
    }
    async with driver.client:
        await steps[story]()
    if spans is not None and driver.traces is not None:
        tally.check(len(driver.traces) > 0, f"the story made traced calls (made {len(driver.traces)})")
        for ok, what in check_traces(read_span_lines(spans), driver.traces):
            tally.check(ok, what)


def main() -> None:
    """Command line entry."""
    parser = argparse.ArgumentParser()
    parser.add_argument("story", choices=["desk", "gate", "mrtr", "legacy-elicitation", "extras"])
    parser.add_argument("--era", choices=["modern", "legacy"], default="modern")
    parser.add_argument("--label", required=True)
    parser.add_argument("--spans", type=Path, help="our server's span file (--otel file:PATH): check trace continuation")
    parser.add_argument("--url")
    parser.add_argument("--stdio", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    target: StdioServerParameters | str = args.url or StdioServerParameters(command=args.stdio[0], args=args.stdio[1:])
    tally = Tally(args.label)
    try:
        asyncio.run(run(args.story, target, args.era, tally, args.spans))
    except Exception as error:  # the run's own failure is one failed check, reported
        tally.check(False, f"the run finished (raised {type(error).__name__}: {error})")
    print(tally.summary(), flush=True)
    sys.exit(1 if tally.failed or tally.passed == 0 else 0)


if __name__ == "__main__":
    main()
