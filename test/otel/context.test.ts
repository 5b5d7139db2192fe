/**
 * Trace context in and out: a client's `traceparent` in `params._meta` is continued (a malformed one
 * starts a new trace, never an error), a later round joins its call's trace through the sealed
 * state, refusals and masked errors are on the span, and an exporter that throws fails nothing.
 */
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { McpResolveServer, resolver } from '../../src/index.js';
import { connectInProcess, connectManual } from '../../src/testing/index.js';
import type { Recording } from './helpers.js';
import { counterSum, exportedValues, recording, callSpans } from './helpers.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const OTHER_TRACE = '0af7651916cd43dd8448eb211c80319c';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

function observed(): Recording {
  const recorded = recording();
  cleanups.push(() => recorded.shutdown());
  return recorded;
}

const ORDER_7001 = { order_id: 'ORD-7001', reason: 'download corrupted' };

describe.each(['modern', 'legacy'] as const)('a client trace context on the %s era', (era) => {
  it('continues the traceparent and tracestate from params._meta', async () => {
    const recorded = observed();
    const connection = await connectInProcess(createRefundDesk({ telemetry: recorded.telemetry }).createServer, {
      era,
    });
    cleanups.push(() => connection.close());
    const result = await connection.client.callTool({
      name: 'refund_order',
      arguments: ORDER_7001,
      _meta: { traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: 'vendor=abc' },
    });
    expect(result.isError).toBeFalsy();
    const [server] = callSpans(recorded.spans());
    expect(server?.spanContext().traceId).toBe(TRACE);
    expect(server?.parentSpanContext?.spanId).toBe(PARENT);
    expect(server?.spanContext().traceState?.get('vendor')).toBe('abc');
  });

  it.each([
    [undefined, 1],
    [false, 1],
    [true, 0],
  ] as const)(
    'with honorClientTraceFlags %s, a traceparent with flags 00 gives %i traced calls (the client cannot switch tracing off by default)',
    async (honorClientTraceFlags, expected) => {
      const recorded = recording(honorClientTraceFlags === undefined ? {} : { honorClientTraceFlags });
      cleanups.push(() => recorded.shutdown());
      const connection = await connectInProcess(createRefundDesk({ telemetry: recorded.telemetry }).createServer, {
        era,
      });
      cleanups.push(() => connection.close());
      const result = await connection.client.callTool({
        name: 'refund_order',
        arguments: ORDER_7001,
        _meta: { traceparent: `00-${TRACE}-${PARENT}-00` },
      });
      expect(result.isError).toBeFalsy();
      const spans = callSpans(recorded.spans());
      expect(spans).toHaveLength(expected);
      if (expected === 1) expect(spans[0]?.spanContext().traceId).toBe(TRACE);
    },
  );

  it.each([
    ['not a traceparent', 'hello'],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${PARENT}-01`],
    ['upper-case hex', `00-${TRACE.toUpperCase()}-${PARENT}-01`],
    ['version ff', `ff-${TRACE}-${PARENT}-01`],
    ['a number', 42],
  ])('starts a new trace for %s', async (_label, traceparent) => {
    const recorded = observed();
    const connection = await connectInProcess(createRefundDesk({ telemetry: recorded.telemetry }).createServer, {
      era,
    });
    cleanups.push(() => connection.close());
    const result = await connection.client.callTool({
      name: 'refund_order',
      arguments: ORDER_7001,
      _meta: { traceparent },
    });
    expect(result.isError).toBeFalsy();
    const [server] = callSpans(recorded.spans());
    expect(server?.parentSpanContext).toBeUndefined();
    expect(server?.spanContext().traceId).not.toBe(TRACE);
  });

  it('an exporter that throws never fails a call', async () => {
    const throwing: SpanExporter = {
      export(_spans: ReadableSpan[], _done: (result: ExportResult) => void): void {
        throw new Error('collector down');
      },
      shutdown: async () => {},
    };
    const recorded = recording({}, throwing);
    cleanups.push(() => recorded.shutdown());
    const answers = { elicit: () => ({ action: 'accept' as const, content: { full: true, restock: true } }) };
    const connection = await connectInProcess(createRefundDesk({ telemetry: recorded.telemetry }).createServer, {
      era,
      ...answers,
    });
    cleanups.push(() => connection.close());
    const result = await connection.client.callTool({
      name: 'refund_order',
      arguments: { order_id: 'ORD-7002', reason: 'x' },
    });
    expect(result.structuredContent).toMatchObject({ refunded_cents: 4800, restocked: true });
  });
});

describe('rounds of one call', () => {
  const desk = (recorded: Recording) => createRefundDesk({ telemetry: recorded.telemetry }).createServer;
  const args = { order_id: 'ORD-7002', reason: 'arrived broken' };

  it('join round 1 through the sealed state; a client trace on a later round is the parent and round 1 a link', async () => {
    const recorded = observed();
    const manual = await connectManual(desk(recorded));
    cleanups.push(() => manual.close());
    const first = await manual.round('refund_order', args);
    if (first.kind !== 'input_required') throw new Error('round 1 should ask');
    const second = await manual.round('refund_order', args, {
      requestState: first.requestState,
      inputResponses: { [Object.keys(first.inputRequests)[0] ?? '']: { action: 'accept', content: { full: true } } },
    });
    if (second.kind !== 'input_required') throw new Error('round 2 should ask');
    const third: unknown = await manual.client.request(
      {
        method: 'tools/call',
        params: {
          name: 'refund_order',
          arguments: args,
          requestState: second.requestState,
          inputResponses: {
            [Object.keys(second.inputRequests)[0] ?? '']: { action: 'accept', content: { restock: false } },
          },
          _meta: { traceparent: `00-${OTHER_TRACE}-${PARENT}-01` },
        },
      },
      { allowInputRequired: true },
    );
    expect(third).toMatchObject({ structuredContent: { refunded_cents: 4800 } });
    const [one, two, three] = callSpans(recorded.spans());
    expect(two?.spanContext().traceId).toBe(one?.spanContext().traceId);
    expect(two?.parentSpanContext?.spanId).toBe(one?.spanContext().spanId);
    expect(three?.spanContext().traceId).toBe(OTHER_TRACE);
    expect(three?.links.map((link) => link.context.spanId)).toEqual([two?.spanContext().spanId]);
    expect(three?.attributes['mcp_resolve.round']).toBe(3);
  });

  it('a refused state is on the span and counted by reason, replays separately', async () => {
    const recorded = observed();
    const manual = await connectManual(desk(recorded));
    cleanups.push(() => manual.close());
    const first = await manual.round('refund_order', args);
    if (first.kind !== 'input_required' || first.requestState === undefined) throw new Error('round 1 should ask');
    const token = first.requestState;
    // A character in the middle: every bit of it is data (a trailing one may be padding bits only).
    const middle = Math.floor(token.length / 2);
    const tampered = `${token.slice(0, middle)}${token[middle] === 'A' ? 'B' : 'A'}${token.slice(middle + 1)}`;
    await expect(manual.round('refund_order', args, { requestState: tampered })).rejects.toThrow();
    const key = Object.keys(first.inputRequests)[0] ?? '';
    const answer = { [key]: { action: 'accept', content: { full: true } } };
    await manual.round('refund_order', args, { requestState: token, inputResponses: answer });
    await expect(manual.round('refund_order', args, { requestState: token, inputResponses: answer })).rejects.toThrow();
    const refused = callSpans(recorded.spans()).filter((span) => span.attributes['error.type'] === '-32602');
    expect(refused).toHaveLength(2);
    const opens = recorded.spans().filter((span) => span.name === 'mcp_resolve.state.open');
    expect(opens.map((span) => span.attributes['mcp_resolve.refusal.reason'])).toEqual([
      'tampered',
      undefined,
      'replayed',
    ]);
    const metrics = await recorded.metrics();
    expect(counterSum(metrics, 'mcp_resolve.state.refusals', { 'mcp_resolve.refusal.reason': 'tampered' })).toBe(1);
    expect(counterSum(metrics, 'mcp_resolve.state.refusals', { 'mcp_resolve.refusal.reason': 'replayed' })).toBe(1);
    expect(counterSum(metrics, 'mcp_resolve.state.replays')).toBe(1);
  });
});

describe('a masked error', () => {
  it('carries its ref on the span, never its message', async () => {
    const recorded = observed();
    const broken = resolver({ name: 'loadOrder' }, () => {
      throw new Error('connect failed: postgres://admin:hunter2@db');
    });
    const server = new McpResolveServer(
      { name: 'masked', version: '1.0.0' },
      { telemetry: recorded.telemetry, onerror: () => {} },
    ).tool('lookup', { input: { order_id: z.string() }, resolve: { order: broken } }, ({ order }) => String(order));
    const connection = await connectInProcess(server.createServer, { era: 'modern' });
    cleanups.push(() => connection.close());
    const result = await connection.client.callTool({ name: 'lookup', arguments: { order_id: 'A' } });
    const text = JSON.stringify(result.content);
    const ref = /ref ([0-9a-f]{12})/.exec(text)?.[1];
    const [span] = callSpans(recorded.spans());
    expect(span?.attributes).toMatchObject({ 'mcp_resolve.error.ref': ref, 'error.type': 'tool_error' });
    const values = exportedValues(recorded.spans(), await recorded.metrics());
    expect(values.filter(([, value]) => String(value).includes('hunter2'))).toEqual([]);
  });
});

describe('otel() options', () => {
  it('refuses an honorClientTraceFlags that is not a boolean, naming the option', async () => {
    const { otel } = await import('../../src/otel/index.js');
    // @ts-expect-error - a JavaScript caller can pass anything
    expect(() => otel({ honorClientTraceFlags: 'yes' })).toThrow(
      "otel(): honorClientTraceFlags must be true or false (got yes). Leave it out to ignore clients' trace flags.",
    );
  });
});
