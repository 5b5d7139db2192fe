/** resolvers.md §5 [D]: each resolver runs once per round, each question is asked once per call, nothing is cached across calls. */
import { elicit, outcome, resolver } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { call, connect, ERAS, newServer, textOf } from './helpers.js';

const Pick = z.object({ pick: z.string() });

describe.each(ERAS)('memoization (%s)', (era) => {
  it('[D1] a resolver with many consumers runs once per round', async () => {
    let sharedRuns = 0;
    const shared = resolver({ name: 'shared', args: { n: z.number() } }, ({ n }) => {
      sharedRuns++;
      return n + 1;
    });
    const left = resolver({ name: 'left', deps: { shared } }, ({ shared: value }) => value * 2);
    const right = resolver(
      { name: 'right', deps: { shared, alsoShared: outcome(shared) } },
      ({ shared: value, alsoShared }) => (alsoShared.action === 'accept' ? value + alsoShared.value : -1),
    );
    const top = resolver({ name: 'top', deps: { left, right } }, ({ left: l, right: r }) => l + r);
    const server = newServer().tool(
      't',
      { input: { n: z.number() }, resolve: { shared, top, again: outcome(shared) } },
      ({ shared: s, top: t, again }) => `${s}|${t}|${again.action}`,
    );
    const connection = await connect(server, { era });
    expect(textOf(await call(connection, 't', { n: 1 }))).toBe('2|8|accept');
    expect(sharedRuns).toBe(1);
  });

  it('[D1] with a question in the graph, a shared resolver still runs at most once per round', async () => {
    let sharedRuns = 0;
    const shared = resolver({ name: 'shared' }, () => {
      sharedRuns++;
      return 'base';
    });
    const ask = resolver({ name: 'ask', deps: { shared } }, ({ shared: base }) => elicit(`pick for ${base}?`, Pick));
    const after = resolver(
      { name: 'after', deps: { shared, ask } },
      ({ shared: base, ask: answer }) => `${base}/${answer.pick}`,
    );
    const server = newServer().tool(
      't',
      { resolve: { shared, after } },
      ({ shared: base, after: path }) => `${base}:${path}`,
    );
    const connection = await connect(server, { era, elicit: () => ({ action: 'accept', content: { pick: 'p' } }) });
    expect(textOf(await call(connection, 't'))).toBe('base:base/p');
    expect(sharedRuns).toBe(connection.counters.legs['tools/call']);
    expect(sharedRuns).toBe(era === 'modern' ? 2 : 1);
  });

  it('[D1] identity is the resolver object: two resolvers built from one function are two resolvers', async () => {
    let runs = 0;
    const count = (): number => ++runs;
    const first = resolver({ name: 'counter' }, count);
    const second = resolver({ name: 'counter' }, count);
    const server = newServer().tool(
      't',
      { resolve: { a: first, b: second, c: first } },
      ({ a, b, c }) => `${a}|${b}|${c}`,
    );
    const connection = await connect(server, { era });
    expect(textOf(await call(connection, 't'))).toBe('1|2|1');
    expect(runs).toBe(2);
  });

  it('[D2] each question is asked at most once per call, however many consumers and rounds', async () => {
    let askRuns = 0;
    const ask = resolver({ name: 'ask' }, () => {
      askRuns++;
      return elicit('Which one?', Pick);
    });
    const follow = resolver({ name: 'follow', deps: { ask } }, ({ ask: first }) => elicit(`Why ${first.pick}?`, Pick));
    const last = resolver({ name: 'last', deps: { follow, ask: outcome(ask) } }, ({ follow: second, ask: first }) =>
      elicit(`Sure about ${first.action === 'accept' ? first.value.pick : '?'} because ${second.pick}?`, Pick),
    );
    const server = newServer().tool(
      't',
      { resolve: { a: ask, b: outcome(ask), c: follow, d: last } },
      ({ a, b, c, d }) => `${a.pick}|${b.action}|${c.pick}|${d.pick}`,
    );
    const asked: string[] = [];
    const connection = await connect(server, {
      era,
      elicit: (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { pick: `#${asked.length}` } };
      },
    });
    expect(textOf(await call(connection, 't'))).toBe('#1|accept|#2|#3');
    expect(asked).toEqual(['Which one?', 'Why #1?', 'Sure about #1 because #2?']);
    expect(connection.counters.questions).toEqual({ 'elicitation/create': 3 });
    if (era === 'modern') {
      // The handler is re-entered on every round; the recorded answer satisfies the repeated question.
      expect(connection.counters.legs['tools/call']).toBe(4);
      expect(askRuns).toBe(4);
    } else {
      expect(connection.counters.legs['tools/call']).toBe(1);
      expect(askRuns).toBe(1);
    }
  });

  it('[D3] nothing is cached across calls: the next call runs every resolver and asks again', async () => {
    let computed = 0;
    const compute = resolver({ name: 'compute' }, () => ++computed);
    const ask = resolver({ name: 'ask' }, () => elicit('Again?', Pick));
    const server = newServer().tool('t', { resolve: { n: compute, a: ask } }, ({ n, a }) => `${n}:${a.pick}`);
    let answers = 0;
    const connection = await connect(server, {
      era,
      elicit: () => ({ action: 'accept', content: { pick: `answer${++answers}` } }),
    });
    const perCall = era === 'modern' ? 2 : 1;
    expect(textOf(await call(connection, 't'))).toBe(`${perCall}:answer1`);
    expect(textOf(await call(connection, 't'))).toBe(`${2 * perCall}:answer2`);
    expect(connection.counters.questions).toEqual({ 'elicitation/create': 2 });
  });

  it('[D3] nothing is cached across connections either', async () => {
    let computed = 0;
    const compute = resolver({ name: 'compute', args: { id: z.string() } }, ({ id }) => `${id}#${++computed}`);
    const ask = resolver({ name: 'ask', args: { id: z.string() } }, ({ id }) => elicit(`Pick for ${id}?`, Pick));
    const server = newServer().tool(
      't',
      { input: { id: z.string() }, resolve: { c: compute, a: ask } },
      ({ c, a }) => `${c}:${a.pick}`,
    );
    const first = await connect(server, { era, elicit: () => ({ action: 'accept', content: { pick: 'one' } }) });
    const second = await connect(server, { era, elicit: () => ({ action: 'accept', content: { pick: 'two' } }) });
    const perCall = era === 'modern' ? 2 : 1;
    expect(textOf(await call(first, 't', { id: 'x' }))).toBe(`x#${perCall}:one`);
    expect(textOf(await call(second, 't', { id: 'x' }))).toBe(`x#${2 * perCall}:two`);
    expect(first.counters.questions).toEqual({ 'elicitation/create': 1 });
    expect(second.counters.questions).toEqual({ 'elicitation/create': 1 });
  });
});

describe('the synchronous fast path', () => {
  it('a sync resolver that ran before an async one stopped the fast path runs once, and its value is kept', async () => {
    let syncRuns = 0;
    let asyncRuns = 0;
    const base = resolver({ name: 'base' }, () => {
      syncRuns += 1;
      return 20;
    });
    const slow = resolver({ name: 'slow', deps: { base } }, async ({ base: b }) => {
      asyncRuns += 1;
      return b + 1;
    });
    const after = resolver({ name: 'after', deps: { base, slow } }, ({ base: b, slow: s }) => b + s);
    const server = newServer().tool('t', { resolve: { after } }, ({ after: a }) => `${a}`);
    const connection = await connect(server, { era: 'modern' });
    expect(textOf(await call(connection, 't'))).toBe('41');
    expect({ syncRuns, asyncRuns }).toEqual({ syncRuns: 1, asyncRuns: 1 });
  });
});
