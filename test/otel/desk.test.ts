/**
 * The refund desk's calls, observed by the real OpenTelemetry SDK: the span tree of every call on
 * both eras over HTTP, the metrics after the contract's table, and a walk of every exported
 * attribute for anything secret.
 */
import type { AddressInfo } from 'node:net';

import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';

import { runRefundDesk } from '../../examples/stories/refund-desk/client.js';
import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import type { Recording } from './helpers.js';
import { counterSum, exportedValues, histogram, recording, callSpans } from './helpers.js';

const KEY = new Uint8Array(32).fill(7);
const KEY_TEXT = [
  Buffer.from(KEY).toString('base64url'),
  Buffer.from(KEY).toString('hex'),
  Buffer.from(KEY).toString('base64'),
];

/** The contract's table: legs per call on the modern era (every call is one request on legacy). */
const MODERN_LEGS = [1, 3, 3, 2, 2, 1];
/** What the calls of the table send and answer: none of it may be exported. */
const ARGUMENT_AND_ANSWER_TEXT = [
  'ORD-7001',
  'ORD-7002',
  'ORD-9999',
  'download corrupted',
  'arrived broken',
  'wrong colour',
  'lost parcel',
  'changed mind',
  'typo',
  'canvas-tote',
  'mystery-hat',
  'enamel-mug',
  'sticker-pack',
];

const PROTOCOL = { modern: '2026-07-28', legacy: '2025-11-25' } as const;

let open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const closable of open.reverse()) await closable.close();
  open = [];
});

async function servedDesk(observed: Recording): Promise<HttpServerHandle> {
  const handle = await serveHttp(createRefundDesk({ telemetry: observed.telemetry, requestState: { keys: [KEY] } }), {
    port: 0,
  });
  open.push(handle);
  return handle;
}

/** The SERVER spans grouped by trace, in the order the calls were made. */
function callsOf(spans: readonly ReadableSpan[]): ReadableSpan[][] {
  const byTrace = new Map<string, ReadableSpan[]>();
  for (const span of callSpans(spans)) {
    const trace = span.spanContext().traceId;
    byTrace.set(trace, [...(byTrace.get(trace) ?? []), span]);
  }
  return [...byTrace.values()];
}

function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
}

describe.each(['modern', 'legacy'] as const)('the refund desk observed on the %s era over HTTP', (era) => {
  it('exports one trace per call, its rounds chained, with the reference attribute names', async () => {
    const observed = recording();
    open.push({ close: () => observed.shutdown() });
    const handle = await servedDesk(observed);
    const report = await runRefundDesk({ transport: 'http', era, url: handle.url, log: () => {} });
    expect(report.failed).toBe(0);

    const spans = observed.spans();
    const calls = callsOf(spans);
    expect(calls.map((rounds) => rounds.length)).toEqual(era === 'modern' ? MODERN_LEGS : [1, 1, 1, 1, 1, 1]);
    for (const rounds of calls) {
      rounds.forEach((span, index) => {
        expect(span.name).toBe('tools/call refund_order');
        expect(span.attributes).toMatchObject({
          'mcp.method.name': 'tools/call',
          'mcp.protocol.version': PROTOCOL[era],
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'refund_order',
          'mcp_resolve.round': index + 1,
        });
        expect(span.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
        // Round n+1 is a child of round n: one trace per logical call.
        const previous = rounds[index - 1];
        expect(span.parentSpanContext?.spanId).toBe(previous?.spanContext().spanId);
      });
    }
    // The outcomes of the table: three receipts, then three tool errors.
    expect(calls.map((rounds) => rounds.at(-1)?.attributes['mcp_resolve.round.outcome'])).toEqual([
      'completed',
      'completed',
      'completed',
      'tool_error',
      'tool_error',
      'tool_error',
    ]);
    expect(calls.map((rounds) => rounds.at(-1)?.attributes['error.type'])).toEqual([
      undefined,
      undefined,
      undefined,
      'tool_error',
      'tool_error',
      'tool_error',
    ]);

    // Call 2 (whole order, restock): resolvers, the two questions and their answers, state sealed and opened.
    const call2 = calls[1] ?? [];
    const names = call2.map((round) =>
      childrenOf(spans, round)
        .map((span) => span.name)
        .sort(),
    );
    const questions = call2
      .flatMap((round) => childrenOf(spans, round))
      .filter((span) => /^(question|answer|push) /.test(span.name));
    expect(names.flat()).toEqual(
      expect.arrayContaining(['resolve order', 'resolve scope', 'resolve cents', 'resolve restock']),
    );
    if (era === 'modern') {
      expect(names[0]).toContain('mcp_resolve.state.seal');
      expect(names[1]).toEqual(expect.arrayContaining(['mcp_resolve.state.open', 'mcp_resolve.state.seal']));
      expect(
        questions.map((span) => [span.name.split(' ')[0], span.attributes['mcp_resolve.question.outcome']]),
      ).toEqual([
        ['question', 'input_required'],
        ['answer', 'accept'],
        ['question', 'input_required'],
        ['answer', 'accept'],
      ]);
    } else {
      expect(
        questions.map((span) => [span.name.split(' ')[0], span.kind, span.attributes['mcp_resolve.question.outcome']]),
      ).toEqual([
        ['push', 2, 'accept'],
        ['push', 2, 'accept'],
      ]);
    }
    for (const question of questions) {
      expect(question.attributes['mcp_resolve.question.kind']).toBe('elicit');
      expect(question.attributes['mcp_resolve.question.attempt']).toBe(1);
    }
  });

  it('records the metrics the contract table implies', async () => {
    const observed = recording();
    open.push({ close: () => observed.shutdown() });
    const handle = await servedDesk(observed);
    expect((await runRefundDesk({ transport: 'http', era, url: handle.url, log: () => {} })).failed).toBe(0);
    const metrics = await observed.metrics();

    expect(counterSum(metrics, 'mcp_resolve.calls', { 'mcp_resolve.call.outcome': 'completed' })).toBe(3);
    expect(counterSum(metrics, 'mcp_resolve.calls', { 'mcp_resolve.call.outcome': 'tool_error' })).toBe(3);
    expect(counterSum(metrics, 'mcp_resolve.calls', { 'gen_ai.tool.name': 'refund_order' })).toBe(6);
    const rounds = histogram(metrics, 'mcp_resolve.call.rounds');
    expect(rounds).toEqual({ count: 6, sum: era === 'modern' ? 12 : 6 });
    // Questions per topic after the table: scope 4, restock 2.
    const keys = new Map<string, number>();
    const questions = metrics.find((metric) => metric.descriptor.name === 'mcp_resolve.questions');
    for (const point of questions?.dataPoints ?? [])
      keys.set(String(point.attributes['mcp_resolve.question.key']), Number(point.value));
    expect([...keys.values()].sort()).toEqual([2, 4]);
    expect(histogram(metrics, 'mcp_resolve.question.duration').count).toBe(6);
    expect(
      histogram(metrics, 'mcp_resolve.question.duration', { 'mcp_resolve.question.outcome': 'decline' }).count,
    ).toBe(2);
    const calls = { 'mcp.method.name': 'tools/call' };
    expect(histogram(metrics, 'mcp.server.operation.duration', calls).count).toBe(era === 'modern' ? 12 : 6);
    // The story client lists the tools once: that request is measured too.
    expect(histogram(metrics, 'mcp.server.operation.duration', { 'mcp.method.name': 'tools/list' }).count).toBe(1);
    expect(counterSum(metrics, 'mcp_resolve.state.refusals')).toBe(0);
  });

  it('exports no argument value, answer, token or key in any attribute', async () => {
    const observed = recording();
    open.push({ close: () => observed.shutdown() });
    const handle = await servedDesk(observed);
    const tokens: string[] = [];
    const fetchAndKeep = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, init);
      const text = await response.clone().text();
      for (const match of text.matchAll(/"requestState":"([^"]+)"/g)) if (match[1] !== undefined) tokens.push(match[1]);
      return response;
    };
    // Legacy calls carry no requestState (and their GET stream never ends, so it is not read).
    const keep = era === 'modern' ? { fetch: fetchAndKeep } : {};
    const report = await runRefundDesk({ transport: 'http', era, url: handle.url, ...keep, log: () => {} });
    expect(report.failed).toBe(0);
    if (era === 'modern') expect(tokens.length).toBeGreaterThan(0);
    const values = exportedValues(observed.spans(), await observed.metrics());
    expect(values.length).toBeGreaterThan(100);
    const secrets = [...ARGUMENT_AND_ANSWER_TEXT, ...KEY_TEXT, ...tokens];
    const leaks = values.filter(([, value]) => secrets.some((secret) => String(value).includes(secret)));
    expect(leaks).toEqual([]);
    // Nothing that looks like a token or key slips through under another form either.
    expect(values.filter(([, value]) => typeof value === 'string' && value.length > 64)).toEqual([]);
  });
});

describe('continuing a trace', () => {
  it('two instances sharing keys serve the rounds of one call in one trace', async () => {
    const first = recording({ instance: 'a' });
    const second = recording({ instance: 'b' });
    open.push({ close: () => first.shutdown() }, { close: () => second.shutdown() });
    const a = await servedDesk(first);
    const b = await servedDesk(second);
    let turn = 0;
    const alternate = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const target = turn++ % 2 === 0 ? a.url : b.url;
      const url = new URL(input instanceof Request ? input.url : input);
      url.port = String(Number(target.port));
      return fetch(url, init);
    };
    expect(
      (await runRefundDesk({ transport: 'http', era: 'modern', url: a.url, fetch: alternate, log: () => {} })).failed,
    ).toBe(0);
    const spans = [...first.spans(), ...second.spans()];
    const call2 = callsOf(spans)[1] ?? [];
    expect(call2).toHaveLength(3);
    expect(new Set(call2.map((span) => span.attributes['mcp_resolve.instance'])).size).toBe(2);
    expect(new Set(call2.map((span) => span.spanContext().traceId)).size).toBe(1);
  });
});

export type { AddressInfo };
