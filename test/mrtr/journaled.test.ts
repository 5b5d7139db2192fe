/** Option J in depth: replay from a sealed journal, batching, pinning, bounds, and what a handler cannot break. */
import { setTimeout as sleep } from 'node:timers/promises';

import type { InputRequest } from '@modelcontextprotocol/client';
import { inputRequired } from '@modelcontextprotocol/server';
import type { McpResolveServerOptions } from 'mcp-resolve';
import { McpResolveServer } from 'mcp-resolve';
import type { JournaledHandler, JournaledOptions, SuspendInfo } from 'mcp-resolve/mrtr';
import { journaled } from 'mcp-resolve/mrtr';
import { describe, expect, it } from 'vitest';

import { TOKEN_OVERHEAD_BYTES } from '../../src/state/token.js';
import { z } from 'zod';

import {
  accept,
  answerAll,
  complete,
  connect,
  connectManual,
  messageOf,
  observe,
  pending,
  protocolError,
  SHARED,
  textOf,
} from './helpers.js';

const Pick = z.object({ pick: z.string() });

/** Counts how often each named step body runs. */
function stepRuns() {
  const runs: Record<string, number> = {};
  const run = (name: string) => () => {
    runs[name] = (runs[name] ?? 0) + 1;
    return `${name}-result`;
  };
  return { runs, run };
}

/** A server whose `weather` tool (input `{ location }`, the helpers' default call) is the journaled `handler`. */
function journaledServer(
  handler: JournaledHandler<{ location: string }>,
  options: JournaledOptions = {},
  serverOptions: McpResolveServerOptions = SHARED,
): McpResolveServer {
  const input = { location: z.string() };
  return new McpResolveServer({ name: 'journal-test', version: '1.0.0' }, serverOptions).tool(
    'weather',
    { input },
    journaled(handler, options),
  );
}

/** Answers an elicitation by echoing the first word of its message as the pick. */
const echo = (request: InputRequest) => accept({ pick: messageOf(request).split(' ')[0]?.replace('?', '') ?? '' });

const pickOf = (outcome: { action: string; value?: { pick: string } }) =>
  outcome.action === 'accept' && outcome.value !== undefined ? outcome.value.pick : outcome.action;

describe('two sequential questions with a step before, between and after them', () => {
  const build = (run: (name: string) => () => string) =>
    journaledServer(async (_args, ctx) => {
      await ctx.step('before', run('before'));
      const first = await ctx.elicit('First?', Pick);
      await ctx.step('between', run('between'));
      const second = await ctx.elicit('Second?', Pick);
      await ctx.step('after', run('after'));
      return `${pickOf(first)} then ${pickOf(second)}`;
    });

  it('modern: three rounds, two questions, every step once', async () => {
    const { runs, run } = stepRuns();
    const connection = await connect(build(run).createServer, {
      era: 'modern',
      elicit: (params) => echo({ method: 'elicitation/create', params }),
    });
    expect(await observe(connection)).toMatchObject({ text: 'First then Second', questions: 2, legs: 3, pushes: 0 });
    expect(runs).toEqual({ before: 1, between: 1, after: 1 });
  });

  it('legacy: the same handler runs once, asking by push', async () => {
    const { runs, run } = stepRuns();
    const connection = await connect(build(run).createServer, {
      era: 'legacy',
      elicit: (params) => echo({ method: 'elicitation/create', params }),
    });
    expect(await observe(connection)).toMatchObject({ text: 'First then Second', questions: 2, legs: 1, pushes: 2 });
    expect(runs).toEqual({ before: 1, between: 1, after: 1 });
  });
});

describe('independent questions', () => {
  it('a Promise.all of two questions is one round with both, and a step still in flight is recorded first', async () => {
    const { runs, run } = stepRuns();
    const server = journaledServer(async (_args, ctx) => {
      const [slow, a, b] = await Promise.all([
        ctx.step('slow', async () => {
          await sleep(5);
          return run('slow')();
        }),
        ctx.elicit('Alpha?', Pick),
        ctx.elicit('Beta?', Pick),
      ]);
      return `${slow}: ${pickOf(a)} and ${pickOf(b)}`;
    });
    const manual = await connectManual(server.createServer);
    const first = pending(await manual.round('weather', { location: 'x' }));
    expect(Object.values(first.inputRequests).map(messageOf).sort()).toEqual(['Alpha?', 'Beta?']);
    const done = complete(await manual.round('weather', { location: 'x' }, answerAll(first, echo)));
    expect(textOf(done)).toBe('slow-result: Alpha and Beta');
    expect(runs).toEqual({ slow: 1 });
  });

  it('questions of every kind batch together, and a sampled answer is paid for once', async () => {
    let samples = 0;
    const server = journaledServer(async (_args, ctx) => {
      const [summary, roots, choice] = await Promise.all([
        ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }], maxTokens: 10 }),
        ctx.listRoots(),
        ctx.elicit('Pick?', Pick),
      ]);
      const confirm = await ctx.elicit('Sure?', Pick);
      const text = Array.isArray(summary.content) ? '' : summary.content.type === 'text' ? summary.content.text : '';
      return `${text} / ${roots.map((root) => root.uri).join(',')} / ${pickOf(choice)} / ${pickOf(confirm)}`;
    });
    const connection = await connect(server.createServer, {
      era: 'modern',
      elicit: (params) => echo({ method: 'elicitation/create', params }),
      sample: () => {
        samples += 1;
        return { role: 'assistant', content: { type: 'text', text: 'summary' }, model: 'test' };
      },
      roots: () => ({ roots: [{ uri: 'file:///work' }] }),
    });
    expect(await observe(connection)).toMatchObject({ text: 'summary / file:///work / Pick / Sure', legs: 3 });
    expect(samples).toBe(1);
  });
});

describe('the journal is the only state', () => {
  it('survives a server restart: round two runs on a new server with the same configured key', async () => {
    const { runs, run } = stepRuns();
    const handler: JournaledHandler<{ location: string }> = async ({ location }, ctx) => {
      await ctx.step('audit', run('audit'));
      return `${location}: ${pickOf(await ctx.elicit('Units?', Pick))}`;
    };
    const before = await connectManual(journaledServer(handler).createServer);
    const first = pending(await before.round('weather', { location: 'Tokyo' }));
    const after = await connectManual(journaledServer(handler).createServer); // a new process would look the same
    const done = complete(await after.round('weather', { location: 'Tokyo' }, answerAll(first, echo)));
    expect(textOf(done)).toBe('Tokyo: Units');
    expect(runs).toEqual({ audit: 1 });
  });

  it('a reworded question is asked again; the other recorded answer survives the redeploy', async () => {
    const version = (second: string) =>
      journaledServer(async (_args, ctx) => {
        const name = await ctx.elicit('Name?', Pick);
        const colour = await ctx.elicit(second, Pick);
        return `${pickOf(name)} likes ${pickOf(colour)}`;
      });
    const v1 = await connectManual(version('Colour?').createServer);
    const v2 = await connectManual(version('Favourite colour?').createServer);
    const r1 = pending(await v1.round('weather', { location: 'x' }));
    const r2 = pending(
      await v1.round(
        'weather',
        { location: 'x' },
        answerAll(r1, () => accept({ pick: 'Ada' })),
      ),
    );
    expect(Object.values(r2.inputRequests).map(messageOf)).toEqual(['Colour?']);
    // Redeploy between rounds: the answer to "Colour?" must not be consumed by "Favourite colour?".
    const r3 = pending(
      await v2.round(
        'weather',
        { location: 'x' },
        answerAll(r2, () => accept({ pick: 'stale' })),
      ),
    );
    expect(Object.values(r3.inputRequests).map(messageOf)).toEqual(['Favourite colour?']);
    const done = complete(
      await v2.round(
        'weather',
        { location: 'x' },
        answerAll(r3, () => accept({ pick: 'teal' })),
      ),
    );
    expect(textOf(done)).toBe('Ada likes teal');
  });

  it('an answer sent without the state that asked for it is not consumed', async () => {
    const manual = await connectManual(
      journaledServer(async (_args, ctx) => pickOf(await ctx.elicit('Units?', Pick))).createServer,
    );
    const first = pending(await manual.round('weather', { location: 'x' }));
    const { inputResponses } = answerAll(first, () => accept({ pick: 'unasked' }));
    const again = pending(await manual.round('weather', { location: 'x' }, { inputResponses }));
    expect(Object.keys(again.inputRequests)).toEqual(Object.keys(first.inputRequests));
  });
});

describe('suspension is not an exception', () => {
  it('a handler that catches every error still suspends, and its step runs once', async () => {
    const { runs, run } = stepRuns();
    const server = journaledServer(async (_args, ctx) => {
      try {
        await ctx.step('effect', run('effect'));
        return `got ${pickOf(await ctx.elicit('Units?', Pick))}`;
      } catch {
        return 'swallowed';
      } finally {
        await ctx.step('cleanup', run('cleanup'));
      }
    });
    const connection = await connect(server.createServer, { era: 'modern', elicit: () => accept({ pick: 'metric' }) });
    expect(await observe(connection)).toMatchObject({ text: 'got metric', questions: 1, legs: 2 });
    expect(runs).toEqual({ effect: 1, cleanup: 1 });
  });

  it('usage errors are not swallowed by a catch-all either: asking inside a step fails the call', async () => {
    const server = journaledServer(async (_args, ctx) => {
      try {
        await ctx.step('outer', async () => ctx.elicit('Inside?', Pick));
        return 'continued';
      } catch {
        return 'swallowed';
      }
    });
    const seen = await observe(
      await connect(server.createServer, { era: 'modern', elicit: () => accept({ pick: 'x' }) }),
    );
    expect(seen).toMatchObject({ isError: true, questions: 0 });
    expect(seen.text).toContain("ctx.elicit() inside ctx.step('outer')");
  });

  it('a step result with no JSON form fails the call instead of running again next round', async () => {
    const server = journaledServer(async (_args, ctx) => {
      try {
        await ctx.step('big', () => 10n);
      } catch {
        // swallowed on purpose
      }
      return pickOf(await ctx.elicit('Units?', Pick));
    });
    const seen = await observe(
      await connect(server.createServer, { era: 'modern', elicit: () => accept({ pick: 'x' }) }),
    );
    expect(seen.isError).toBe(true);
    expect(seen.text).toContain("ctx.step('big') returned a value with no JSON form");
  });
});

describe('answers', () => {
  it('a decline is an outcome the handler branches on, recorded like an answer and never re-asked', async () => {
    const server = journaledServer(async (_args, ctx) => {
      const first = await ctx.elicit('First?', Pick);
      const second = await ctx.elicit('Second?', Pick);
      return `${pickOf(first)} / ${pickOf(second)}`;
    });
    const connection = await connect(server.createServer, {
      era: 'modern',
      elicit: (params) => (params.message === 'First?' ? { action: 'decline' } : accept({ pick: 'yes' })),
    });
    expect(await observe(connection)).toMatchObject({ text: 'decline / yes', questions: 2, legs: 3 });
  });

  it('an answer that does not match the schema fails the call', async () => {
    const server = journaledServer(async (_args, ctx) => pickOf(await ctx.elicit('Units?', Pick)));
    const seen = await observe(
      await connect(server.createServer, { era: 'modern', elicit: () => accept({ pick: 42 }) }),
    );
    expect(seen.isError).toBe(true);
    expect(seen.text).toContain('does not match the requested schema');
  });

  it('a client without the capability gets -32021 on the first round, before anything is asked', async () => {
    const server = journaledServer(async (_args, ctx) => pickOf(await ctx.elicit('Units?', Pick)));
    const connection = await connect(server.createServer, { era: 'modern', capabilities: {} });
    const error = await protocolError(connection.client.callTool({ name: 'weather', arguments: { location: 'x' } }));
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: { form: {} } } });
  });

  it('a handler that returns input_required itself is told to ask through ctx', async () => {
    const asksByItself = inputRequired({
      inputRequests: { units: inputRequired.elicit({ message: 'Units?', requestedSchema: Pick }) },
    });
    // @ts-expect-error - a journaled handler asks through ctx: input_required is not a handler result
    const server = journaledServer(async () => asksByItself);
    const seen = await observe(
      await connect(server.createServer, { era: 'modern', elicit: () => accept({ pick: 'x' }) }),
    );
    expect(seen).toMatchObject({ isError: true, questions: 0 });
    expect(seen.text).toContain('the handler returned input_required itself; ask with ctx.elicit()');
  });
});

describe('the journal is measured and bounded', () => {
  it('a 5-step, 3-question handler: the journal grows by what it records', async () => {
    const sizes: SuspendInfo[] = [];
    const tokens: number[] = [];
    const server = journaledServer(
      async ({ location }, ctx) => {
        const order = await ctx.step('load', () => ({ id: 'ORD-7002', lines: 3, total: 4800 }));
        await ctx.step('audit', () => undefined);
        const scope = await ctx.elicit(`Refund all of ${order.id}?`, z.object({ full: z.boolean() }));
        const quote = await ctx.step('quote', () => ({ cents: 4800, currency: 'EUR' }));
        const [restock, note] = await Promise.all([
          ctx.elicit('Restock the items?', z.object({ restock: z.boolean() })),
          ctx.elicit('A note for the customer?', z.object({ note: z.string() })),
        ]);
        const refund = await ctx.step('refund', () => ({ refundId: 'RF-1', cents: quote.cents }));
        await ctx.step('notify', () => true);
        return `${location} ${order.id} ${refund.refundId} ${scope.action} ${restock.action} ${note.action}`;
      },
      { onSuspend: (info) => void sizes.push(info) },
    );
    const manual = await connectManual(server.createServer);
    let round = await manual.round('weather', { location: 'Tokyo' });
    while (round.kind === 'input_required') {
      tokens.push(round.requestState?.length ?? 0);
      round = await manual.round(
        'weather',
        { location: 'Tokyo' },
        answerAll(round, (request) => {
          const message = messageOf(request);
          return accept(
            message.startsWith('Refund')
              ? { full: true }
              : message.startsWith('Restock')
                ? { restock: true }
                : { note: 'sorry' },
          );
        }),
      );
    }
    expect(textOf(complete(round))).toBe('Tokyo ORD-7002 RF-1 accept accept accept');
    // Round 1: two steps recorded, one question pending; round 2: three steps, one answer, two questions pending.
    // Exact, so docs/guides/handler-shapes.md's numbers stay true: the journal is small JSON, nothing else.
    expect(sizes).toEqual([
      { journalBytes: 125, questions: 1 },
      { journalBytes: 288, questions: 2 },
    ]);
    // What travels is the sealed token: the journal plus a fixed overhead, in base64url.
    expect(tokens).toEqual(sizes.map((size) => Math.ceil(((size.journalBytes + TOKEN_OVERHEAD_BYTES) * 4) / 3)));
  });

  it('past maxJournalBytes the call fails with a clear error', async () => {
    const server = journaledServer(
      async (_args, ctx) => {
        await ctx.step('document', () => 'x'.repeat(2_000));
        return pickOf(await ctx.elicit('Units?', Pick));
      },
      { maxJournalBytes: 1_000 },
    );
    const seen = await observe(
      await connect(server.createServer, { era: 'modern', elicit: () => accept({ pick: 'x' }) }),
    );
    expect(seen.isError).toBe(true);
    expect(seen.text).toMatch(
      /^journaled\(\): this call's journal is \d+ bytes, over maxJournalBytes \(1000\)\. Record ids rather than documents/,
    );
  });

  it('rejects a bound that is not a positive integer at construction', () => {
    expect(() => journaled(() => '', { maxJournalBytes: 0 })).toThrow(
      /maxJournalBytes must be a positive integer \(got 0\)/,
    );
  });
});
