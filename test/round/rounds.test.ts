/** resolvers.md §6 [E]: independent questions batch, dependent ones wait one round each, keys are stable, the round cap holds. */
import type { ElicitResult } from '@modelcontextprotocol/client';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { AnyResolver } from 'mcp-resolve';
import { elicit, listRoots, outcome, resolver, sample } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  accept,
  asked,
  call,
  completed,
  connect,
  connectManual,
  ERAS,
  messageOf,
  newServer,
  sampled,
  sampleText,
  textOf,
} from '../resolvers/helpers.js';

const Pick = z.object({ pick: z.string() });

const POEM = sample({ messages: [{ role: 'user', content: { type: 'text', text: 'a poem' } }], maxTokens: 10 });

/** One question of each kind, independent of each other. */
function surveyServer() {
  const name = resolver({ name: 'name' }, () => elicit('Your name?', Pick));
  const poem = resolver({ name: 'poem' }, () => POEM);
  const roots = resolver({ name: 'roots' }, () => listRoots());
  return newServer().tool('survey', { resolve: { name, poem, roots } }, ({ name: who, poem: verse, roots: where }) =>
    [who.pick, sampleText(verse), where.map((root) => root.uri).join(',')].join(' | '),
  );
}

/** q1 → q2 → q3, plus an independent q0 (depth 1). */
function chainServer(log?: string[]) {
  const q0 = resolver({ name: 'q0' }, () => elicit('q0?', Pick));
  const q1 = resolver({ name: 'q1' }, () => elicit('q1?', Pick));
  const q2 = resolver({ name: 'q2', deps: { q1 } }, ({ q1: a }) => elicit(`q2 after ${a.pick}?`, Pick));
  const q3 = resolver({ name: 'q3', deps: { q2 } }, ({ q2: b }) => elicit(`q3 after ${b.pick}?`, Pick));
  return newServer().tool('chain', { resolve: { q3, q0 } }, ({ q3: c, q0: z0 }) => {
    log?.push('body');
    return `${c.pick}+${z0.pick}`;
  });
}

const answerWithMessage =
  (asked: string[]) =>
  (params: { message: string }): ElicitResult => {
    asked.push(params.message);
    return { action: 'accept', content: { pick: params.message.replace(/\?$/, '').split(' ')[0] ?? '' } };
  };

describe.each(ERAS)('rounds, counted (%s)', (era) => {
  it('[E1] independent questions of every kind are asked together: one extra leg on modern, one push each on legacy', async () => {
    const connection = await connect(surveyServer(), {
      era,
      elicit: () => ({ action: 'accept', content: { pick: 'Ann' } }),
      sample: () => sampled('roses'),
      roots: () => ({ roots: [{ uri: 'file:///work' }] }),
    });
    expect(textOf(await call(connection, 'survey'))).toBe('Ann | roses | file:///work');
    expect(connection.counters.questions).toEqual({
      'elicitation/create': 1,
      'sampling/createMessage': 1,
      'roots/list': 1,
    });
    expect(connection.counters.legs['tools/call']).toBe(era === 'modern' ? 2 : 1);
    expect(connection.counters.pushes).toBe(era === 'modern' ? 0 : 3);
  });

  it('[E2] rounds needed = depth of the question chain, no extra rounds; dependent questions come after their dependency', async () => {
    const log: string[] = [];
    const connection = await connect(chainServer(log), { era, elicit: answerWithMessage(log) });
    expect(textOf(await call(connection, 'chain'))).toBe('q3+q0');
    expect(connection.counters.questions).toEqual({ 'elicitation/create': 4 });
    expect(connection.counters.legs['tools/call']).toBe(era === 'modern' ? 4 : 1);
    expect(log.indexOf('q1?')).toBeLessThan(log.indexOf('q2 after q1?'));
    expect(log.indexOf('q2 after q1?')).toBeLessThan(log.indexOf('q3 after q2?'));
    expect(log.at(-1)).toBe('body');
  });
});

describe('rounds on the wire (modern only: rounds and inputRequests exist only there)', () => {
  it('[E1] one input_required result carries every independent question, elicit, sample and roots mixed', async () => {
    const manual = await connectManual(surveyServer());
    const first = asked(await manual.round('survey', {}));
    expect(Object.keys(first.inputRequests).sort()).toEqual(['name', 'poem', 'roots']);
    expect(
      Object.values(first.inputRequests)
        .map((request) => request.method)
        .sort(),
    ).toEqual(['elicitation/create', 'roots/list', 'sampling/createMessage']);
    const done = completed(
      await manual.round(
        'survey',
        {},
        {
          inputResponses: {
            name: accept({ pick: 'Ann' }),
            poem: sampled('roses'),
            roots: { roots: [{ uri: 'file:///w' }] },
          },
          requestState: first.requestState,
        },
      ),
    );
    expect(textOf(done)).toBe('Ann | roses | file:///w');
  });

  it('[E2] a dependent question is asked in a later round, never in the same batch', async () => {
    const manual = await connectManual(chainServer());
    const r1 = asked(await manual.round('chain', {}));
    expect(Object.keys(r1.inputRequests).sort()).toEqual(['q0', 'q1']);
    const r2 = asked(
      await manual.round(
        'chain',
        {},
        { inputResponses: { q0: accept({ pick: 'z' }), q1: accept({ pick: 'a' }) }, requestState: r1.requestState },
      ),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['q2']);
    expect(messageOf(r2.inputRequests.q2)).toBe('q2 after a?');
    const r3 = asked(
      await manual.round('chain', {}, { inputResponses: { q2: accept({ pick: 'b' }) }, requestState: r2.requestState }),
    );
    expect(Object.keys(r3.inputRequests)).toEqual(['q3']);
    expect(messageOf(r3.inputRequests.q3)).toBe('q3 after b?');
    const done = completed(
      await manual.round('chain', {}, { inputResponses: { q3: accept({ pick: 'c' }) }, requestState: r3.requestState }),
    );
    expect(textOf(done)).toBe('c+z');
  });

  it('[E2] a question behind computed values only is asked in the first round; a join waits for both branches', async () => {
    const base = resolver({ name: 'base' }, () => 'b');
    const computed = resolver({ name: 'computed', deps: { base } }, ({ base: b }) => `${b}${b}`);
    const early = resolver({ name: 'early', deps: { computed } }, ({ computed: c }) => elicit(`early ${c}?`, Pick));
    const other = resolver({ name: 'other' }, () => elicit('other?', Pick));
    const join = resolver({ name: 'join', deps: { early, other } }, ({ early: e, other: o }) =>
      elicit(`join ${e.pick} ${o.pick}?`, Pick),
    );
    const server = newServer().tool('t', { resolve: { join } }, ({ join: j }) => j.pick);
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    expect(Object.keys(r1.inputRequests).sort()).toEqual(['early', 'other']);
    expect(messageOf(r1.inputRequests.early)).toBe('early bb?');
    const r2 = asked(
      await manual.round(
        't',
        {},
        {
          inputResponses: { early: accept({ pick: 'e' }), other: accept({ pick: 'o' }) },
          requestState: r1.requestState,
        },
      ),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['join']);
    expect(messageOf(r2.inputRequests.join)).toBe('join e o?');
  });

  it('[E3] a question pending for several consumers runs its resolver once and is asked once in the round', async () => {
    let runs = 0;
    const ask = resolver({ name: 'ask' }, () => {
      runs++;
      return elicit('Shared?', Pick);
    });
    const viaResolver = resolver({ name: 'viaResolver', deps: { ask } }, ({ ask: a }) => a.pick);
    const viaOutcome = resolver({ name: 'viaOutcome', deps: { ask: outcome(ask) } }, ({ ask: a }) => a.action);
    const server = newServer().tool(
      't',
      { resolve: { a: ask, b: outcome(ask), c: viaResolver, d: viaOutcome } },
      ({ a, b, c, d }) => `${a.pick}|${b.action}|${c}|${d}`,
    );
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    expect(Object.keys(r1.inputRequests)).toEqual(['ask']);
    expect(runs).toBe(1);
    const done = completed(
      await manual.round('t', {}, { inputResponses: { ask: accept({ pick: 'x' }) }, requestState: r1.requestState }),
    );
    expect(textOf(done)).toBe('x|accept|x|accept');
    expect(runs).toBe(2);
  });

  it('[E4] keys are derived from registration data: identical across separately built servers and unaffected by other tools', async () => {
    const build = (withOtherToolFirst: boolean) => {
      const server = newServer();
      if (withOtherToolFirst) {
        const name = resolver({ name: 'name' }, () => elicit('Other tool?', Pick));
        const q1 = resolver({ name: 'q1' }, () => elicit('Other q1?', Pick));
        server.tool('other', { resolve: { name, q1 } }, ({ name: n, q1: q }) => n.pick + q.pick);
      }
      const ask = (label: string) => resolver({}, () => elicit(`${label}?`, Pick));
      const left = resolver({ name: 'side', deps: { x: ask('left') } }, ({ x }) => x.pick);
      const right = resolver({ name: 'side', deps: { x: ask('right') } }, ({ x }) => x.pick);
      const named = resolver({ name: 'name' }, () => elicit('Name?', Pick));
      return server.tool(
        't',
        { resolve: { left, right, named } },
        ({ left: l, right: r, named: n }) => `${l}|${r}|${n.pick}`,
      );
    };
    const keysOf = async (withOtherToolFirst: boolean) => {
      const manual = await connectManual(build(withOtherToolFirst));
      const r1 = asked(await manual.round('t', {}));
      return Object.fromEntries(Object.entries(r1.inputRequests).map(([key, request]) => [key, messageOf(request)]));
    };
    const once = await keysOf(false);
    expect(Object.keys(once)).toHaveLength(3);
    expect(await keysOf(false)).toEqual(once);
    expect(await keysOf(true)).toEqual(once);
  });

  it('[E4] resolvers whose keys would collide get distinct keys, and each answer reaches its own resolver', async () => {
    // Two anonymous resolvers found under the same dependency name, and two resolvers with the same declared name.
    const anonymous = (label: string) => resolver({}, () => elicit(`${label}?`, Pick));
    const left = resolver({ name: 'left', deps: { x: anonymous('left') } }, ({ x }) => x.pick);
    const right = resolver({ name: 'right', deps: { x: anonymous('right') } }, ({ x }) => x.pick);
    const twinA = resolver({ name: 'twin' }, () => elicit('twin A?', Pick));
    const twinB = resolver({ name: 'twin' }, () => elicit('twin B?', Pick));
    const server = newServer().tool(
      't',
      { resolve: { left, right, a: twinA, b: twinB } },
      ({ left: l, right: r, a, b }) => `${l}|${r}|${a.pick}|${b.pick}`,
    );
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    const keys = Object.keys(r1.inputRequests);
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(4);
    const responses = Object.fromEntries(
      Object.entries(r1.inputRequests).map(([key, request]) => [
        key,
        accept({ pick: messageOf(request).replace('?', '') }),
      ]),
    );
    const done = completed(await manual.round('t', {}, { inputResponses: responses, requestState: r1.requestState }));
    expect(textOf(done)).toBe('left|right|twin A|twin B');
  });

  it('[E4] a question asked again in a later round keeps its key', async () => {
    const q1 = resolver({ name: 'q1' }, () => elicit('q1?', Pick));
    const q2 = resolver({ name: 'q2', deps: { q1 } }, ({ q1: a }) => elicit(`q2 after ${a.pick}?`, Pick));
    const server = newServer().tool('t', { resolve: { q2, q1 } }, ({ q2: b }) => b.pick);
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    // No answer this round: the same question comes back under the same key.
    const r2 = asked(await manual.round('t', {}, { inputResponses: {}, requestState: r1.requestState }));
    expect(r2.inputRequests).toEqual(r1.inputRequests);
  });

  it("[E5] a chain deeper than the client's round cap ends with the client's round-cap error, not a hang", async () => {
    let previous: AnyResolver = resolver({ name: 'step0' }, () => elicit('step0?', Pick));
    for (let i = 1; i < 6; i++) {
      const dep = previous;
      previous = resolver({ name: `step${i}`, deps: { dep } }, () => elicit(`step${i}?`, Pick));
    }
    const server = newServer().tool('deep', { resolve: { last: previous } }, () => 'done');
    const connection = await connect(server, {
      era: 'modern',
      maxRounds: 3,
      elicit: () => ({ action: 'accept', content: { pick: 'p' } }),
    });
    const attempt = call(connection, 'deep');
    await expect(attempt).rejects.toBeInstanceOf(SdkError);
    await expect(attempt).rejects.toMatchObject({ code: SdkErrorCode.InputRequiredRoundsExceeded });
    expect(connection.counters.legs['tools/call']).toBe(4);
  });
});
