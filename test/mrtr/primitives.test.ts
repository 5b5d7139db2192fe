/** The `mcp-resolve/mrtr` primitives on their own: once, the step builder, suspending handlers, era and answers. */
import { inputRequired } from '@modelcontextprotocol/server';
import { McpResolveError, McpResolveServer } from 'mcp-resolve';
import type { ContinuationStore } from 'mcp-resolve/mrtr';
import {
  answerOf,
  byEra,
  CONTINUATION_GONE,
  createContinuationStore,
  ElicitationDeclinedError,
  eraOf,
  once,
  pushElicit,
  steps,
  suspending,
  withOnce,
} from 'mcp-resolve/mrtr';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

import { OPTIONS } from '../../examples/mrtr-options/deck.js';
import {
  accept,
  answerAll,
  answerUnits,
  complete,
  connect,
  connectManual,
  messageOf,
  observe,
  pending,
  textOf,
} from './helpers.js';

const INPUT = { location: z.string() };
const Pick = z.object({ pick: z.string() });
const PICK_REQUEST = inputRequired.elicit({ message: 'Pick?', requestedSchema: Pick });
const server = () => new McpResolveServer({ name: 'primitives', version: '1.0.0' });

describe('once (option F)', () => {
  it("keeps its guard across the SDK shim's re-entries on legacy, and hands the body its own state back", async () => {
    let effects = 0;
    const tool = server().tool(
      'weather',
      { input: INPUT },
      withOnce(async (_args, ctx) => {
        await once(ctx, 'effect', () => void (effects += 1));
        const pick = answerOf(ctx, 'pick', Pick);
        if (pick === undefined) return inputRequired({ inputRequests: { pick: PICK_REQUEST }, requestState: 'mine' });
        return `${String(ctx.mcpReq.requestState())}: ${pick.action === 'accept' ? pick.value.pick : pick.action}`;
      }),
    );
    for (const era of ['modern', 'legacy'] as const) {
      effects = 0;
      const seen = await observe(await connect(tool.createServer, { era, elicit: () => accept({ pick: 'p' }) }));
      expect({ era, text: seen.text, effects, questions: seen.questions }).toEqual({
        era,
        text: 'mine: p',
        effects: 1,
        questions: 1,
      });
    }
  });

  it('runs concurrent calls for one key once', async () => {
    let effects = 0;
    const tool = server().tool(
      'weather',
      { input: INPUT },
      withOnce(async (_args, ctx) => {
        const runs = await Promise.all([1, 2, 3].map(() => once(ctx, 'effect', () => (effects += 1))));
        return runs.join(',');
      }),
    );
    expect((await observe(await connect(tool.createServer, { era: 'modern' }))).text).toBe('1,,');
    expect(effects).toBe(1);
  });

  it('outside withOnce() is a usage error naming the fix', async () => {
    const tool = server().tool('weather', { input: INPUT }, async (_args, ctx) =>
      String(await once(ctx, 'effect', () => 1)),
    );
    const seen = await observe(await connect(tool.createServer, { era: 'modern' }));
    expect(seen.isError).toBe(true);
    expect(seen.text).toBe(
      "once(): ctx does not belong to a withOnce() body (key 'effect'). Wrap the tool body: .tool(name, { input }, withOnce(async (args, ctx) => …)).",
    );
  });
  it('holds for the context it hands the body only: a spread copy carries no guard (no member of the context to copy or forge)', async () => {
    const tool = server().tool(
      'weather',
      { input: INPUT },
      withOnce(async (_args, ctx) => {
        const members = `${Object.getOwnPropertySymbols(ctx).length} symbol keys`;
        const ran = await once(ctx, 'effect', () => 'ran');
        const copied = await once({ ...ctx }, 'copy', () => 'ran').catch((error: unknown) => (error as Error).message);
        return [members, ran, copied].join(' | ');
      }),
    );
    expect((await observe(await connect(tool.createServer, { era: 'modern' }))).text).toBe(
      "0 symbol keys | ran | once(): ctx does not belong to a withOnce() body (key 'copy'). Wrap the tool body: .tool(name, { input }, withOnce(async (args, ctx) => …)).",
    );
  });
});

describe('the step builder (option G)', () => {
  it('types the arguments from the input and each result from its step, without the input_required arm', () => {
    server().tool(
      'weather',
      { input: INPUT },
      steps((step) =>
        step
          .ask('units', () =>
            Math.random() > 2 ? inputRequired({ inputRequests: { pick: PICK_REQUEST } }) : ('metric' as const),
          )
          .ask('count', (_args, _ctx, results) => {
            expectTypeOf(results).toEqualTypeOf<{ readonly units: 'metric' }>();
            return 3;
          })
          .end((args, _ctx, results) => {
            expectTypeOf(args).toEqualTypeOf<{ location: string }>();
            expectTypeOf(results).toEqualTypeOf<{ readonly units: 'metric'; readonly count: number }>();
            return `${args.location}: ${results.units} × ${results.count}`;
          }),
      ),
    );
  });

  it('rejects a duplicate step name, a missing end step and a foreign definition with invalid_usage', () => {
    expect(() =>
      steps<{ location: string }>((step) => {
        const builder = step.ask('units', () => 'metric');
        // @ts-expect-error - the compile-time error reads "Step 'units' is already declared: step names must be unique"
        return builder.ask('units', () => 'imperial').end(() => '');
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'invalid_usage',
        message: expect.stringContaining("a step named 'units' is already declared"),
      }),
    );
    // @ts-expect-error - a definition must end with .end(…): a bare builder is not a finished definition
    const unfinished = () => steps<{ location: string }>((step) => step.ask('units', () => 'metric'));
    expect(unfinished).toThrow(McpResolveError);
    expect(unfinished).toThrow(
      'steps(): there is no end step. End the definition with .end((args, ctx, results) => …).',
    );
    // @ts-expect-error - the definition is a function of the builder
    expect(() => steps('units')).toThrow('steps(): the definition must be a function (got string).');
    // @ts-expect-error - the definition must return the builder it was given
    expect(() => steps(() => ({}))).toThrow(
      'steps(): the definition must return its builder after .end(…), e.g. (s) => s.ask(…).end(…).',
    );
  });

  it('gives an asking step its own requestState back, and runs the end step once', async () => {
    let ends = 0;
    const tool = server().tool(
      'weather',
      { input: INPUT },
      steps((step) =>
        step
          .ask('first', () => 'ready')
          .ask('pick', (_args, ctx) => {
            const pick = answerOf(ctx, 'pick', Pick);
            if (pick === undefined)
              return inputRequired({ inputRequests: { pick: PICK_REQUEST }, requestState: 'step-own' });
            return `${String(ctx.mcpReq.requestState())}/${pick.action === 'accept' ? pick.value.pick : pick.action}`;
          })
          .end((_args, _ctx, { first, pick }) => {
            ends += 1;
            return `${first} ${pick}`;
          }),
      ),
    );
    const seen = await observe(
      await connect(tool.createServer, { era: 'modern', elicit: () => accept({ pick: 'p' }) }),
    );
    expect({ text: seen.text, ends }).toEqual({ text: 'ready step-own/p', ends: 1 });
  });
});

describe('suspending handlers (option H)', () => {
  const suspendingServer = (store = createContinuationStore()) =>
    server().tool(
      'weather',
      { input: INPUT },
      suspending(
        async (_args, ctx) => {
          try {
            const [a, b] = await Promise.all([ctx.elicit('Alpha?', Pick), ctx.elicit('Beta?', Pick)]);
            return `${a.pick} ${b.pick}`;
          } catch (error) {
            if (error instanceof ElicitationDeclinedError) return `not accepted: ${error.action}`;
            throw error;
          }
        },
        { store },
      ),
    );

  it('batches concurrent questions in one round and frees the frame when done', async () => {
    const store = createContinuationStore();
    const manual = await connectManual(suspendingServer(store).createServer);
    const first = pending(await manual.round('weather', { location: 'x' }));
    expect(Object.values(first.inputRequests).map(messageOf).sort()).toEqual(['Alpha?', 'Beta?']);
    expect(store.size).toBe(1);
    const done = complete(
      await manual.round(
        'weather',
        { location: 'x' },
        answerAll(first, (request) => accept({ pick: messageOf(request) })),
      ),
    );
    expect({ text: textOf(done), size: store.size }).toEqual({ text: 'Alpha? Beta?', size: 0 });
  });

  it('a decline rejects with a typed error the handler catches', async () => {
    const seen = await observe(
      await connect(suspendingServer().createServer, { era: 'modern', elicit: () => ({ action: 'decline' }) }),
    );
    expect(seen.text).toBe('not accepted: decline');
  });

  it('an expired continuation tells the client to start over', async () => {
    let now = 0;
    const store = createContinuationStore({ ttlMs: 1_000, now: () => now });
    const manual = await connectManual(suspendingServer(store).createServer);
    const first = pending(await manual.round('weather', { location: 'x' }));
    now += 1_001;
    const late = complete(
      await manual.round(
        'weather',
        { location: 'x' },
        answerAll(first, () => accept({ pick: 'p' })),
      ),
    );
    expect({ text: textOf(late), isError: late.isError }).toEqual({ text: CONTINUATION_GONE, isError: true });
  });

  it('past maxEntries the oldest suspended call is dropped, and only its client starts over', async () => {
    const store = createContinuationStore({ maxEntries: 1 });
    const older = await connectManual(suspendingServer(store).createServer);
    const newer = await connectManual(suspendingServer(store).createServer);
    const r1 = pending(await older.round('weather', { location: 'x' }));
    const r2 = pending(await newer.round('weather', { location: 'x' }));
    const answer = () => accept({ pick: 'p' });
    expect(textOf(complete(await older.round('weather', { location: 'x' }, answerAll(r1, answer))))).toBe(
      CONTINUATION_GONE,
    );
    expect(textOf(complete(await newer.round('weather', { location: 'x' }, answerAll(r2, answer))))).toBe('p p');
  });

  it('takes any ContinuationStore: a wrapper counting puts and takes serves a call through two rounds', async () => {
    const inner = createContinuationStore();
    const counts = { puts: 0, takes: 0 };
    const counting: ContinuationStore = {
      get size() {
        return inner.size;
      },
      get ttlMs() {
        return inner.ttlMs;
      },
      put(frame) {
        counts.puts++;
        return inner.put(frame);
      },
      take(id) {
        counts.takes++;
        return inner.take(id);
      },
    };
    const manual = await connectManual(suspendingServer(counting).createServer);
    const first = pending(await manual.round('weather', { location: 'x' }));
    expect(Object.values(first.inputRequests).map(messageOf).sort()).toEqual(['Alpha?', 'Beta?']);
    expect({ ...counts, size: counting.size }).toEqual({ puts: 1, takes: 0, size: 1 });
    const done = complete(
      await manual.round(
        'weather',
        { location: 'x' },
        answerAll(first, (request) => accept({ pick: messageOf(request) })),
      ),
    );
    expect({ text: textOf(done), ...counts, size: counting.size }).toEqual({
      text: 'Alpha? Beta?',
      puts: 1,
      takes: 1,
      size: 0,
    });
  });

  it('refuses a store without put() and take()', () => {
    const message =
      'suspending(): the store must be a ContinuationStore, an object with put(frame) and take(id): ' +
      'use createContinuationStore(), or an object that wraps one.';
    // @ts-expect-error - a store needs put() and take()
    expect(() => suspending(() => '', { store: { size: 0, ttlMs: 1 } })).toThrow(message);
    // @ts-expect-error - a store is an object
    expect(() => suspending(() => '', { store: undefined })).toThrow(message);
  });

  it('names itself in its usage errors, code and data', () => {
    // @ts-expect-error - the handler is a function
    expect(() => suspending('nope', { store: createContinuationStore() })).toThrow(
      expect.objectContaining({
        code: 'invalid_usage',
        data: { api: 'suspending()' },
        message: 'suspending(): the handler must be a function (got string).',
      }),
    );
  });
});

describe('era and answers', () => {
  it('eraOf and byEra follow the request, not the server', async () => {
    const tool = server().tool(
      'weather',
      { input: INPUT },
      byEra({
        modern: (_args, ctx) => `modern arm, ${eraOf(ctx)}`,
        legacy: (_args, ctx) => `legacy arm, ${eraOf(ctx)}`,
      }),
    );
    const texts = await Promise.all(
      (['modern', 'legacy'] as const).map(
        async (era) => (await observe(await connect(tool.createServer, { era }))).text,
      ),
    );
    expect(texts).toEqual(['modern arm, modern', 'legacy arm, legacy']);
  });

  it('answerOf fails the call on an answer that does not match the schema', async () => {
    const seen = await observe(
      await connect(OPTIONS.e.server().createServer, { era: 'modern', elicit: () => accept({ units: 'kelvin' }) }),
    );
    expect(seen).toMatchObject({
      isError: true,
      text: "answerOf(): the answer under 'units' does not match the requested schema.",
    });
  });

  it('pushElicit refuses a modern request with the fix', async () => {
    const tool = server().tool('weather', { input: INPUT }, async (_args, ctx) => {
      const answer = await pushElicit(ctx, 'Pick?', Pick);
      return answer.action;
    });
    const seen = await observe(await connect(tool.createServer, { era: 'modern', elicit: answerUnits('metric') }));
    expect(seen).toMatchObject({
      isError: true,
      text: 'pushElicit(): push requests exist only on legacy (2025-11-25) sessions (got a modern request). On modern requests return input_required instead.',
    });
  });
});
