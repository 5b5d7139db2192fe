/**
 * One request's spans: the SERVER span (attribute names of the OpenTelemetry MCP conventions, as the
 * Python SDK sets them) and its children: state opening and sealing, resolver runs, questions and
 * legacy pushes. The SERVER span starts once the state is opened, so a later round's parent is
 * known: the client's `traceparent` when it sent one, else the round that sealed the state.
 */
import type { Attributes, Context, Link, Span, SpanContext, Tracer } from '@opentelemetry/api';
import { context as otelContext, SpanKind, SpanStatusCode, trace } from './api.js';

import type { CarriedTrace, RequestInfo, RequestTrace, RoundOutcome } from '../telemetry/hooks.js';
import type { Instruments } from './instruments.js';
import { referenceAttributes, rpcErrorAttributes, serverSpanName } from './reference.js';
import { codeOf, errorType, failSpan, safely } from './failures.js';
import { packSpanContext, parentOf, spanContextFromMeta, unpackSpanContext } from './traceparent.js';

/** What every request of one `otel()` shares. */
export interface OtelShared {
  readonly tracer: Tracer;
  readonly instruments: Instruments;
  /** Attributes added to every SERVER span (e.g. `mcp_resolve.instance`). */
  readonly serverAttributes: Attributes;
  /** The author's opt-in: attributes a tool exports from its own arguments. */
  readonly toolAttributes: (tool: string, args: Readonly<Record<string, unknown>>) => Attributes | undefined;
  /** Whether a client's `traceparent` flags are read (`OtelOptions.honorClientTraceFlags`). */
  readonly honorClientTraceFlags: boolean;
  /** The SERVER span that created each task still running in this process, by task id. */
  readonly tasks: Map<string, SpanContext>;
}

/** How many task origins one `otel()` remembers at most. */
const MAX_TASK_ORIGINS = 10_000;

/** The {@link RequestTrace} of one request. */
export class OtelRequest implements RequestTrace {
  #span: Span | undefined;
  #context: Context | undefined;
  #carried: CarriedTrace | undefined;
  #round = 1;

  constructor(
    private readonly shared: OtelShared,
    private readonly info: RequestInfo,
  ) {}

  /** The SERVER span, started on first use (normally by {@link opened}). */
  private server(): Span {
    if (this.#span !== undefined) return this.#span;
    const { info, shared } = this;
    const fromClient = spanContextFromMeta(info.meta, shared.honorClientTraceFlags);
    const carried = this.#carried === undefined ? undefined : unpackSpanContext(this.#carried.context);
    const parent = fromClient ?? carried;
    const links: Link[] = [];
    if (carried !== undefined && fromClient !== undefined && carried.traceId !== fromClient.traceId)
      links.push({ context: carried, attributes: { 'mcp_resolve.link': 'previous_round' } });
    const facts = { ...info, name: info.method === 'resources/read' ? undefined : info.target };
    const attributes: Attributes = {
      ...referenceAttributes(facts),
      'mcp_resolve.era': info.era,
      'mcp_resolve.round': this.#round,
      ...shared.serverAttributes,
    };
    if (info.method === 'tools/call') Object.assign(attributes, shared.toolAttributes(info.target, info.arguments));
    const span = shared.tracer.startSpan(
      serverSpanName(facts),
      { kind: SpanKind.SERVER, attributes, links, startTime: info.startedAt },
      parent === undefined ? otelContext.active() : parentOf(parent),
    );
    this.#span = span;
    this.#context = trace.setSpan(parent === undefined ? otelContext.active() : parentOf(parent), span);
    return span;
  }

  private child(name: string, attributes: Attributes, startTime?: number, kind = SpanKind.INTERNAL): Span {
    this.server();
    return this.shared.tracer.startSpan(
      name,
      { kind, attributes, ...(startTime !== undefined && { startTime }) },
      this.#context,
    );
  }

  opened(carried: CarriedTrace | undefined, refusal: string | undefined, startedAt: number | undefined): void {
    safely(() => {
      this.#carried = carried;
      if (carried !== undefined) this.#round = carried.rounds + 1;
      this.server();
      if (startedAt === undefined) return;
      const span = this.child('mcp_resolve.state.open', {}, startedAt);
      if (refusal !== undefined) {
        span.setAttribute('mcp_resolve.refusal.reason', refusal);
        span.setAttribute('error.type', 'invalid_request_state');
        span.setStatus({ code: SpanStatusCode.ERROR });
        this.shared.instruments.refusals.add(1, {
          'mcp_resolve.refusal.reason': refusal,
          'mcp.method.name': this.info.method,
        });
        if (refusal === 'replayed') this.shared.instruments.replays.add(1, { 'mcp.method.name': this.info.method });
      }
      span.end();
    });
  }

  carry(): CarriedTrace | undefined {
    const context = this.#span?.spanContext();
    if (context === undefined) return undefined;
    return { context: packSpanContext(context), rounds: this.#round, sealedAt: Date.now() };
  }

  sealed(startedAt: number, failure?: string): void {
    safely(() => {
      const span = this.child('mcp_resolve.state.seal', {}, startedAt);
      if (failure !== undefined) {
        span.setAttribute('error.type', failure);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    });
  }

  resolver(label: string): (error?: unknown) => void {
    let span: Span | undefined;
    safely(() => (span = this.child(`resolve ${label}`, { 'mcp_resolve.resolver.name': label })));
    return (error?: unknown) =>
      safely(() => {
        if (span === undefined) return;
        if (error !== undefined) failSpan(span, error);
        span.end();
      });
  }

  private questionAttributes(key: string, kind: string, attempt: number): Attributes {
    return {
      'mcp_resolve.question.key': key,
      'mcp_resolve.question.kind': kind,
      'mcp_resolve.question.attempt': attempt,
    };
  }

  private countQuestion(key: string, kind: string): void {
    this.shared.instruments.questions.add(1, {
      'gen_ai.tool.name': this.info.target,
      'mcp_resolve.question.key': key,
      'mcp_resolve.question.kind': kind,
      'mcp_resolve.era': this.info.era,
    });
  }

  asked(key: string, kind: string, attempt: number): void {
    safely(() => {
      const attributes = this.questionAttributes(key, kind, attempt);
      attributes['mcp_resolve.question.outcome'] = 'input_required';
      this.child(`question ${key}`, attributes).end();
      this.countQuestion(key, kind);
    });
  }

  answered(key: string, kind: string, action: string): void {
    safely(() => {
      const attributes = this.questionAttributes(key, kind, 1);
      attributes['mcp_resolve.question.outcome'] = action;
      this.child(`answer ${key}`, attributes).end();
      const sealedAt = this.#carried?.sealedAt;
      if (sealedAt !== undefined) this.recordWait(kind, action, Date.now() - sealedAt);
    });
  }

  pushed(key: string, kind: string, attempt: number): (action: string | undefined, error?: unknown) => void {
    const startedAt = Date.now();
    let span: Span | undefined;
    safely(() => {
      span = this.child(`push ${key}`, this.questionAttributes(key, kind, attempt), undefined, SpanKind.CLIENT);
      this.countQuestion(key, kind);
    });
    return (action, error) =>
      safely(() => {
        if (span === undefined) return;
        if (action !== undefined) {
          span.setAttribute('mcp_resolve.question.outcome', action);
          this.recordWait(kind, action, Date.now() - startedAt);
        }
        if (error !== undefined) failSpan(span, error);
        span.end();
      });
  }

  private recordWait(kind: string, action: string, ms: number): void {
    this.shared.instruments.questionDuration.record(Math.max(0, ms) / 1000, {
      'mcp_resolve.question.kind': kind,
      'mcp_resolve.question.outcome': action,
      'mcp_resolve.era': this.info.era,
    });
  }

  masked(ref: string, error: unknown): void {
    safely(() => {
      const span = this.server();
      span.setAttribute('mcp_resolve.error.ref', ref);
      span.setAttribute('mcp_resolve.error.class', errorType(error));
    });
  }

  task(taskId: string): void {
    safely(() => {
      const { tasks } = this.shared;
      // Bounded: a process that never sees its tasks end still keeps at most this many.
      if (tasks.size >= MAX_TASK_ORIGINS) tasks.delete(tasks.keys().next().value ?? '');
      tasks.set(taskId, this.server().spanContext());
    });
  }

  end(outcome: RoundOutcome, error?: unknown): void {
    safely(() => {
      const span = this.server();
      const { info, shared } = this;
      span.setAttribute('mcp_resolve.round.outcome', outcome);
      const metric: Attributes = { 'mcp.method.name': info.method };
      if (info.method === 'tools/call') metric['gen_ai.tool.name'] = info.target;
      if (info.protocolVersion !== undefined) metric['mcp.protocol.version'] = info.protocolVersion;
      if (outcome === 'tool_error' || outcome === 'error') {
        const code = outcome === 'error' ? codeOf(error) : undefined;
        const type = outcome === 'tool_error' ? 'tool_error' : errorType(error);
        span.setAttributes(code === undefined ? { 'error.type': type } : rpcErrorAttributes(code));
        span.setStatus({ code: SpanStatusCode.ERROR });
        metric['error.type'] = type;
      }
      shared.instruments.operationDuration.record((Date.now() - info.startedAt) / 1000, metric);
      if (info.method === 'tools/call' && outcome !== 'input_required' && outcome !== 'task') {
        const call = { 'gen_ai.tool.name': info.target, 'mcp_resolve.era': info.era };
        shared.instruments.calls.add(1, { ...call, 'mcp_resolve.call.outcome': outcome });
        shared.instruments.rounds.record(this.#round, call);
      }
      span.end();
    });
  }
}
