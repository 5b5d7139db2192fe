/** resolvers.md §8 [G]: answers are untrusted input, validated against the question before anything uses them. */
import type { ElicitResult } from '@modelcontextprotocol/client';
import { elicit, listRoots, resolver, sample } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { createGuidedRefundDesk } from '../../examples/stories/refund-desk/guided.js';
import {
  accept,
  asked,
  call,
  completed,
  connect,
  connectManual,
  connectRawLegacy,
  ERAS,
  newServer,
  sampled,
  textOf,
} from './helpers.js';

const Quantity = z.object({ quantity: z.number().int().min(1) });
const Pick = z.object({ pick: z.string() });

/** A tool whose body and consumer count their runs, behind one elicitation for a quantity. */
function quantityServer() {
  const runs = { consumer: 0, body: 0 };
  const ask = resolver({ name: 'askQuantity' }, () => elicit('How many?', Quantity));
  const total = resolver({ name: 'total', deps: { q: ask } }, ({ q }) => {
    runs.consumer++;
    return q.quantity * 100;
  });
  const server = newServer().tool('order', { resolve: { total } }, ({ total: cents }) => {
    runs.body++;
    return `${cents}`;
  });
  return { server, runs };
}

/** Text a tool error must never contain: validator internals and stack frames. */
function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/invalid_type|too_small|"path"|"code"|expected (a )?number|received|\n\s+at /i);
}

describe.each(ERAS)('answer validation (%s)', (era) => {
  it.each<[string, NonNullable<ElicitResult['content']>]>([
    ['a wrong type', { quantity: 'three' }],
    ['a value the schema refines away', { quantity: 0 }],
    ['a missing required field', { other: 1 }],
  ])(
    '[G1] an accepted answer with %s fails the call before anything uses it, without leaking internals',
    async (_case, content) => {
      const { server, runs } = quantityServer();
      const connection = await connect(server, { era, elicit: () => ({ action: 'accept', content }) });
      const result = await call(connection, 'order');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('does not match the requested schema');
      expectNoInternals(textOf(result));
      expect(runs).toEqual({ consumer: 0, body: 0 });
    },
  );

  it('[G1] a valid answer is delivered as the schema output', async () => {
    const ask = resolver({ name: 'ask' }, () =>
      elicit('Name?', z.object({ name: z.string().transform((s) => s.toUpperCase()) })),
    );
    const server = newServer().tool('t', { resolve: { who: ask } }, ({ who }) => who.name);
    const connection = await connect(server, { era, elicit: () => ({ action: 'accept', content: { name: 'ann' } }) });
    expect(textOf(await call(connection, 't'))).toBe('ANN');
  });

  it('[G2] accept with no content fails the call with "no content"', async () => {
    const { server, runs } = quantityServer();
    const connection = await connect(server, { era, elicit: () => ({ action: 'accept' }) });
    const result = await call(connection, 'order');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('no content');
    expect(runs).toEqual({ consumer: 0, body: 0 });
  });

  it("[G5] domain validation is the author's: the refund desk checks a typed SKU against the order", async () => {
    const messages: string[] = [];
    const connection = await connect(createRefundDesk(), {
      era,
      elicit: (params) => {
        messages.push(params.message);
        return { action: 'accept', content: { full: false, sku: 'mystery-hat' } };
      },
    });
    const result = await call(connection, 'refund_order', { order_id: 'ORD-7002', reason: 'lost parcel' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("order has no item 'mystery-hat'");
    // The SKU is free text on the form: the schema accepts it, the desk's own check refuses it, once.
    expect(messages).toEqual([
      'ORD-7002 has several items (enamel-mug, canvas-tote, sticker-pack). Refund the whole order, or one SKU?',
    ]);
  });

  it("[G5] domain validation is the author's: the guided desk asks again when a partial refund names no item", async () => {
    const messages: string[] = [];
    const connection = await connect(createGuidedRefundDesk(), {
      era,
      elicit: (params) => {
        messages.push(params.message);
        return { action: 'accept', content: { full: false } };
      },
    });
    const result = await call(connection, 'refund_order', { order_id: 'ORD-7002', reason: 'lost parcel' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Resolver 'scope': the answer was not accepted. Pick the item to refund, or tick 'Refund the whole order'.",
    );
    // Asked three times in all (the default), the reason shown above the question from the second on.
    expect(messages).toHaveLength(3);
    expect(
      messages
        .slice(1)
        .every((message) =>
          message.startsWith(
            "Pick the item to refund, or tick 'Refund the whole order'.\n\nORD-7002 has several items",
          ),
        ),
    ).toBe(true);
    expect(connection.counters.questions).toEqual({ 'elicitation/create': 3 });
    expect(connection.counters.legs['tools/call']).toBe(era === 'modern' ? 4 : 1);
    expect(connection.counters.pushes).toBe(era === 'modern' ? 0 : 3);
  });
});

describe.each(ERAS)('the refund desk story table (%s)', (era) => {
  it('[G5] every row of refund-desk.md: results, legs, pushes and per-topic question counts', async () => {
    const counts = { scope: 0, restock: 0 };
    let script: Array<ElicitResult> = [];
    const connection = await connect(createRefundDesk(), {
      era,
      elicit: (params) => {
        const topic =
          'requestedSchema' in params && 'full' in (params.requestedSchema.properties ?? {}) ? 'scope' : 'restock';
        counts[topic]++;
        const next = script.shift();
        if (next === undefined) return expect.fail(`unexpected question: ${params.message}`);
        return next;
      },
    });
    const row = async (args: { order_id: string; reason: string }, answers: ElicitResult[]) => {
      script = answers;
      connection.counters.reset();
      const result = await call(connection, 'refund_order', args);
      expect(script).toEqual([]);
      return {
        result,
        legs: connection.counters.legs['tools/call'],
        pushes: connection.counters.pushes,
        counts: { ...counts },
      };
    };
    const legs = (modern: number) => (era === 'modern' ? modern : 1);
    const pushes = (legacy: number) => (era === 'modern' ? 0 : legacy);

    const tools = await connection.client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(['refund_order']);
    expect(Object.keys(tools.tools[0]?.inputSchema.properties ?? {}).sort()).toEqual(['order_id', 'reason']);
    expect([...(tools.tools[0]?.inputSchema.required ?? [])].sort()).toEqual(['order_id', 'reason']);

    const r1 = await row({ order_id: 'ORD-7001', reason: 'download corrupted' }, []);
    expect(r1.result.structuredContent).toEqual({
      order_id: 'ORD-7001',
      refunded_cents: 1500,
      restocked: false,
      reason: 'download corrupted',
    });
    expect([r1.legs, r1.pushes, r1.counts]).toEqual([legs(1), pushes(0), { scope: 0, restock: 0 }]);

    const r2 = await row({ order_id: 'ORD-7002', reason: 'arrived broken' }, [
      accept({ full: true }),
      accept({ restock: true }),
    ]);
    expect(r2.result.structuredContent).toEqual({
      order_id: 'ORD-7002',
      refunded_cents: 4800,
      restocked: true,
      reason: 'arrived broken',
    });
    expect([r2.legs, r2.pushes, r2.counts]).toEqual([legs(3), pushes(2), { scope: 1, restock: 1 }]);

    const r3 = await row({ order_id: 'ORD-7002', reason: 'wrong colour' }, [
      accept({ full: false, sku: 'canvas-tote' }),
      { action: 'decline' },
    ]);
    expect(r3.result.structuredContent).toEqual({
      order_id: 'ORD-7002',
      refunded_cents: 2400,
      restocked: false,
      reason: 'wrong colour',
    });
    expect([r3.legs, r3.pushes, r3.counts]).toEqual([legs(3), pushes(2), { scope: 2, restock: 2 }]);

    // A typed SKU that is not on the order: the desk's own check fails the call, it is not asked again.
    const r4 = await row({ order_id: 'ORD-7002', reason: 'lost parcel' }, [
      accept({ full: false, sku: 'mystery-hat' }),
    ]);
    expect(r4.result.isError).toBe(true);
    expect(textOf(r4.result)).toContain("order has no item 'mystery-hat'");
    expect([r4.legs, r4.pushes, r4.counts]).toEqual([legs(2), pushes(1), { scope: 3, restock: 2 }]);

    const r5 = await row({ order_id: 'ORD-7002', reason: 'changed mind' }, [{ action: 'decline' }]);
    expect(r5.result.isError).toBe(true);
    expect(textOf(r5.result)).toMatch(/^Resolver for parameter 'scope' could not resolve: elicitation was decline\b/);
    expect([r5.legs, r5.pushes, r5.counts]).toEqual([legs(2), pushes(1), { scope: 4, restock: 2 }]);

    const r6 = await row({ order_id: 'ORD-9999', reason: 'typo' }, []);
    expect(r6.result.isError).toBe(true);
    expect(textOf(r6.result)).toContain("unknown order 'ORD-9999'");
    expect([r6.legs, r6.pushes, r6.counts]).toEqual([legs(1), pushes(0), { scope: 4, restock: 2 }]);
  });
});

const POEM = sample({ messages: [{ role: 'user', content: { type: 'text', text: 'a poem' } }], maxTokens: 10 });

/** One question of each kind, each behind its own parameter. */
function kindsServer() {
  const name = resolver({ name: 'name' }, () => elicit('Name?', Pick));
  const poem = resolver({ name: 'poem' }, () => POEM);
  const roots = resolver({ name: 'roots' }, () => listRoots());
  return newServer()
    .tool('askName', { resolve: { name } }, ({ name: n }) => n.pick)
    .tool('askPoem', { resolve: { poem } }, () => 'poem')
    .tool('askRoots', { resolve: { roots } }, ({ roots: r }) => `${r.length}`);
}

describe('answers on the wire: wrong kinds, malformed results, unasked keys (modern only: answers travel under keys only there)', () => {
  it.each<[string, string, unknown, string]>([
    ['askName', 'name', sampled('not a form'), 'non-elicitation response'],
    ['askName', 'name', { roots: [] }, 'non-elicitation response'],
    ['askPoem', 'poem', accept({ pick: 'x' }), 'non-sampling response'],
    ['askRoots', 'roots', accept({ pick: 'x' }), 'non-roots response'],
  ])(
    '[G3] %s answered under %s with the wrong kind fails with a wrong-kind error',
    async (tool, key, response, wording) => {
      const manual = await connectManual(kindsServer());
      const r1 = asked(await manual.round(tool, {}));
      const result = completed(
        await manual.round(tool, {}, { inputResponses: { [key]: response }, requestState: r1.requestState }),
      );
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(wording);
      expect(textOf(result)).toContain('wrong kind');
    },
  );

  it.each<[string, string, Record<string, unknown>]>([
    ['askPoem', 'poem', { role: 'assistant', content: 'not a content block' }],
    ['askRoots', 'roots', { roots: [{ uri: 5 }] }],
  ])('[G1] a malformed %s answer under %s is rejected before any consumer uses it', async (tool, key, response) => {
    let consumed = 0;
    const poem = resolver({ name: 'poem' }, () => POEM);
    const roots = resolver({ name: 'roots' }, () => listRoots());
    const server = newServer()
      .tool('askPoem', { resolve: { poem } }, () => `${++consumed}`)
      .tool('askRoots', { resolve: { roots } }, () => `${++consumed}`);
    const manual = await connectManual(server);
    const r1 = asked(await manual.round(tool, {}));
    const result = completed(
      await manual.round(tool, {}, { inputResponses: { [key]: response }, requestState: r1.requestState }),
    );
    expect(result.isError).toBe(true);
    expect(consumed).toBe(0);
  });

  it('[G4] answers under keys that were never asked are ignored, including a pre-emptive answer to a later question', async () => {
    const first = resolver({ name: 'first' }, () => elicit('First?', Pick));
    const second = resolver({ name: 'second', deps: { first } }, ({ first: f }) =>
      elicit(`Second after ${f.pick}?`, Pick),
    );
    const server = newServer().tool('t', { resolve: { second } }, ({ second: s }) => s.pick);
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    const r2 = asked(
      await manual.round(
        't',
        {},
        {
          inputResponses: {
            first: accept({ pick: 'a' }),
            second: accept({ pick: 'smuggled' }),
            bogus: { totally: 'unrelated' },
          },
          requestState: r1.requestState,
        },
      ),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['second']);
    const done = completed(
      await manual.round(
        't',
        {},
        { inputResponses: { second: accept({ pick: 'real' }) }, requestState: r2.requestState },
      ),
    );
    expect(done.isError).not.toBe(true);
    expect(textOf(done)).toBe('real');
  });

  it('[G4] on the very first request, keys never asked are ignored while a first-round answer is consumed', async () => {
    const first = resolver({ name: 'first' }, () => elicit('First?', Pick));
    const server = newServer().tool('t', { resolve: { first } }, ({ first: f }) => f.pick);
    const manual = await connectManual(server);
    const done = completed(
      await manual.round(
        't',
        {},
        { inputResponses: { first: accept({ pick: 'early' }), other: accept({ pick: 'x' }) } },
      ),
    );
    expect(textOf(done)).toBe('early');
  });
});

describe('answers of the wrong kind on a legacy connection (a raw client: the SDK client would not send them)', () => {
  it('[G3] an elicitation push answered with a sampling result fails with a wrong-kind error, no internals', async () => {
    const client = await connectRawLegacy(kindsServer());
    const outcome = await client.callTool('askName', {}, () => sampled('not a form'));
    expect(outcome.result?.isError).toBe(true);
    const text = outcome.result === undefined ? '' : textOf(outcome.result);
    expect(text).toMatch(/non-elicitation response|wrong kind/);
    expectNoInternals(text);
  });

  it('[G3] a sampling push answered with an elicitation result fails with a wrong-kind error, no internals', async () => {
    const client = await connectRawLegacy(kindsServer());
    const outcome = await client.callTool('askPoem', {}, () => accept({ pick: 'x' }));
    expect(outcome.result?.isError).toBe(true);
    const text = outcome.result === undefined ? '' : textOf(outcome.result);
    expect(text).toMatch(/non-sampling response|wrong kind/);
    expectNoInternals(text);
  });

  it('[G1] a raw legacy answer that does not match the schema fails cleanly', async () => {
    const { server, runs } = quantityServer();
    const client = await connectRawLegacy(server);
    const outcome = await client.callTool('order', {}, () => accept({ quantity: 'three' }));
    expect(outcome.result?.isError).toBe(true);
    const text = outcome.result === undefined ? '' : textOf(outcome.result);
    expect(text).toContain('does not match the requested schema');
    expectNoInternals(text);
    expect(runs).toEqual({ consumer: 0, body: 0 });
  });
});
