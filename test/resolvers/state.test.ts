/** resolvers.md §10 [I]: what travels in requestState between rounds, and what happens when it is wrong. */
import type { McpResolveServerOptions } from 'mcp-resolve';
import { elicit, outcome, resolver, sample } from 'mcp-resolve';
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
  sampleText,
  sampled,
  textOf,
} from './helpers.js';

/** The bring-your-own codec interface, as the public options type exposes it. */
type SealingCodec = NonNullable<NonNullable<McpResolveServerOptions['requestState']>['codec']>;

const Pick = z.object({ pick: z.string() });
const Choice = z.object({ choice: z.enum(['alpha', 'gamma']) });

/**
 * A pass-through codec that keeps every sealed envelope in memory, so a test can play a forger
 * holding the keys: it rewrites bytes of a stored token (same length) before the next round.
 */
function vaultCodec() {
  const vault = new Map<string, Uint8Array>();
  let minted = 0;
  const codec: SealingCodec = {
    seal(bytes) {
      const token = `vault-${++minted}`;
      vault.set(token, Uint8Array.from(bytes));
      return token;
    },
    unseal(token) {
      const bytes = vault.get(token);
      if (bytes === undefined) throw new Error('not minted here');
      return bytes;
    },
  };
  const rewrite = (token: string | undefined, from: string, to: string): void => {
    expect(to.length).toBe(from.length);
    const bytes = token === undefined ? undefined : vault.get(token);
    if (bytes === undefined) return expect.fail('no such token');
    const text = Buffer.from(bytes);
    const at = text.indexOf(from, 0, 'utf8');
    if (at < 0) return expect.fail(`'${from}' is not in the sealed state`);
    text.write(to, at, 'utf8');
    vault.set(token ?? '', Uint8Array.from(text));
  };
  return { codec, rewrite };
}

describe('state carried between rounds (modern only: requestState exists only there)', () => {
  it('[I1] only asked outcomes travel in requestState; computed values are recomputed every round', async () => {
    let computedRuns = 0;
    const secret = resolver({ name: 'secret' }, () => {
      computedRuns++;
      return 'COMPUTED-SECRET-42';
    });
    const first = resolver({ name: 'first', deps: { secret } }, ({ secret: s }) =>
      elicit(`First (${s.length})?`, Pick),
    );
    const second = resolver({ name: 'second', deps: { first } }, ({ first: f }) =>
      elicit(`Second after ${f.pick}?`, Pick),
    );
    let seenState: unknown;
    const server = newServer().tool('t', { resolve: { secret, second } }, ({ secret: s, second: n }, ctx) => {
      seenState = ctx.mcpReq.requestState<unknown>();
      return `${s}|${n.pick}`;
    });
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    const r2 = asked(
      await manual.round(
        't',
        {},
        { inputResponses: { first: accept({ pick: 'ANSWER-7' }) }, requestState: r1.requestState },
      ),
    );
    const done = completed(
      await manual.round(
        't',
        {},
        { inputResponses: { second: accept({ pick: 'two' }) }, requestState: r2.requestState },
      ),
    );
    expect(textOf(done)).toBe('COMPUTED-SECRET-42|two');
    expect(computedRuns).toBe(3);
    // The state the last round received (unsealed for the handler) holds the answer, never the computed value.
    expect(typeof seenState).toBe('string');
    expect(String(seenState)).toContain('ANSWER-7');
    expect(String(seenState)).not.toContain('COMPUTED-SECRET-42');
  });

  it('[I1] a recorded answer never stands in for a value the resolver now computes itself', async () => {
    let asks = true;
    const maybe = resolver({ name: 'maybe' }, () => (asks ? elicit('Maybe?', Pick) : { pick: 'computed' }));
    const other = resolver({ name: 'other' }, () => elicit('Other?', Pick));
    const later = resolver({ name: 'later', deps: { other } }, ({ other: o }) =>
      elicit(`Later after ${o.pick}?`, Pick),
    );
    const server = newServer().tool(
      't',
      { resolve: { maybe, later } },
      ({ maybe: m, later: l }) => `${m.pick}|${l.pick}`,
    );
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    expect(Object.keys(r1.inputRequests).sort()).toEqual(['maybe', 'other']);
    const r2 = asked(
      await manual.round(
        't',
        {},
        {
          inputResponses: { maybe: accept({ pick: 'recorded' }), other: accept({ pick: 'o' }) },
          requestState: r1.requestState,
        },
      ),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['later']);
    asks = false;
    const done = completed(
      await manual.round(
        't',
        {},
        {
          inputResponses: { later: accept({ pick: 'l' }), maybe: accept({ pick: 'smuggled' }) },
          requestState: r2.requestState,
        },
      ),
    );
    expect(textOf(done)).toBe('computed|l');
  });

  it('[I2] a recorded answer that no longer validates against the live question (drifted) is dropped and re-asked, not an error', async () => {
    let strict = false;
    const Code = z.object({ code: z.string().refine((code) => !strict || code.startsWith('A')) });
    const code = resolver({ name: 'code' }, () => elicit('Code?', Code));
    const next = resolver({ name: 'next', deps: { code } }, () => elicit('Next?', Pick));
    const server = newServer().tool('t', { resolve: { code, next } }, ({ code: c, next: n }) => `${c.code}|${n.pick}`);
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    const r2 = asked(
      await manual.round('t', {}, { inputResponses: { code: accept({ code: 'B-1' }) }, requestState: r1.requestState }),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['next']);
    strict = true; // a redeploy tightens validation; the rendered question is unchanged
    const r3 = await manual.round(
      't',
      {},
      { inputResponses: { next: accept({ pick: 'n' }) }, requestState: r2.requestState },
    );
    expect(Object.keys(asked(r3).inputRequests)).toEqual(['code']);
    const r4 = asked(
      await manual.round(
        't',
        {},
        { inputResponses: { code: accept({ code: 'A-2' }) }, requestState: asked(r3).requestState },
      ),
    );
    const done = completed(
      await manual.round('t', {}, { inputResponses: { next: accept({ pick: 'n2' }) }, requestState: r4.requestState }),
    );
    expect(textOf(done)).toBe('A-2|n2');
  });

  it('[I2] a forged recorded answer that fails the live question is dropped and re-asked, not an error', async () => {
    const { codec, rewrite } = vaultCodec();
    const choice = resolver({ name: 'choice' }, () => elicit('Choice?', Choice));
    const next = resolver({ name: 'next', deps: { choice } }, () => elicit('Next?', Pick));
    const server = newServer({ requestState: { codec } }).tool(
      't',
      { resolve: { choice, next } },
      ({ choice: c, next: n }) => `${c.choice}|${n.pick}`,
    );
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    const r2 = asked(
      await manual.round(
        't',
        {},
        { inputResponses: { choice: accept({ choice: 'alpha' }) }, requestState: r1.requestState },
      ),
    );
    rewrite(r2.requestState, 'alpha', 'omega');
    const r3 = asked(
      await manual.round('t', {}, { inputResponses: { next: accept({ pick: 'n' }) }, requestState: r2.requestState }),
    );
    expect(Object.keys(r3.inputRequests)).toEqual(['choice']);
  });

  it('[I3] malformed inner state means "no progress yet": the call starts over, no error', async () => {
    const { codec, rewrite } = vaultCodec();
    const first = resolver({ name: 'first' }, () => elicit('First?', Pick));
    const second = resolver({ name: 'second', deps: { first } }, ({ first: f }) =>
      elicit(`Second after ${f.pick}?`, Pick),
    );
    const server = newServer({ requestState: { codec } }).tool('t', { resolve: { second } }, ({ second: s }) => s.pick);
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    const r2 = asked(
      await manual.round(
        't',
        {},
        { inputResponses: { first: accept({ pick: 'MARKER' }) }, requestState: r1.requestState },
      ),
    );
    rewrite(r2.requestState, 'MARKER"', 'MARK"""');
    const r3 = asked(
      await manual.round('t', {}, { inputResponses: { second: accept({ pick: 's' }) }, requestState: r2.requestState }),
    );
    expect(Object.keys(r3.inputRequests)).toEqual(['first']);
    expect(messageOf(r3.inputRequests.first)).toBe('First?');
  });

  it('[I3] an unknown inner state version means "no progress yet", no error', async () => {
    const { codec, rewrite } = vaultCodec();
    const first = resolver({ name: 'first' }, () => elicit('First?', Pick));
    const second = resolver({ name: 'second', deps: { first } }, ({ first: f }) =>
      elicit(`Second after ${f.pick}?`, Pick),
    );
    const server = newServer({ requestState: { codec } }).tool('t', { resolve: { second } }, ({ second: s }) => s.pick);
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    const r2 = asked(
      await manual.round('t', {}, { inputResponses: { first: accept({ pick: 'a' }) }, requestState: r1.requestState }),
    );
    // The inner format is JSON stamped with its version as "v" (src/questions/ledger.ts); bump it.
    rewrite(r2.requestState, '"v":2', '"v":9');
    const r3 = asked(
      await manual.round('t', {}, { inputResponses: { second: accept({ pick: 's' }) }, requestState: r2.requestState }),
    );
    expect(Object.keys(r3.inputRequests)).toEqual(['first']);
  });
});

describe.each(ERAS)('answers kept for the whole call (%s)', (era) => {
  it("[I4] a sampling result is recorded: the client's LLM is paid once per call, not once per round", async () => {
    const poem = resolver({ name: 'poem' }, () =>
      sample({ messages: [{ role: 'user', content: { type: 'text', text: 'a poem' } }], maxTokens: 10 }),
    );
    const title = resolver({ name: 'title', deps: { poem } }, ({ poem: p }) =>
      elicit(`Title for "${sampleText(p)}"?`, Pick),
    );
    const dedication = resolver({ name: 'dedication', deps: { title } }, ({ title: t }) =>
      elicit(`Dedicate "${t.pick}"?`, Pick),
    );
    const server = newServer().tool(
      't',
      { resolve: { poem, dedication, o: outcome(poem) } },
      ({ poem: p, dedication: d }) => `${sampleText(p)}|${d.pick}`,
    );
    let paid = 0;
    const connection = await connect(server, {
      era,
      sample: () => sampled(`roses #${++paid}`),
      elicit: (params) => ({ action: 'accept', content: { pick: params.message.slice(0, 6) } }),
    });
    expect(textOf(await call(connection, 't'))).toBe('roses #1|Dedica');
    expect(paid).toBe(1);
    expect(connection.counters.questions).toEqual({ 'sampling/createMessage': 1, 'elicitation/create': 2 });
    expect(connection.counters.legs['tools/call']).toBe(era === 'modern' ? 4 : 1);
  });

  it('[I5] recorded answers survive any number of rounds: a 4-deep chain keeps its first answer', async () => {
    const q1 = resolver({ name: 'q1' }, () => elicit('q1?', Pick));
    const q2 = resolver({ name: 'q2', deps: { q1 } }, ({ q1: a }) => elicit(`q2 after ${a.pick}?`, Pick));
    const q3 = resolver({ name: 'q3', deps: { q2 } }, ({ q2: b }) => elicit(`q3 after ${b.pick}?`, Pick));
    const q4 = resolver({ name: 'q4', deps: { q3 } }, ({ q3: c }) => elicit(`q4 after ${c.pick}?`, Pick));
    const server = newServer().tool('t', { resolve: { q4, q1 } }, ({ q1: a, q4: d }) => `${a.pick}|${d.pick}`);
    let n = 0;
    const connection = await connect(server, {
      era,
      elicit: () => ({ action: 'accept', content: { pick: `a${++n}` } }),
    });
    expect(textOf(await call(connection, 't'))).toBe('a1|a4');
    expect(connection.counters.questions).toEqual({ 'elicitation/create': 4 });
    expect(connection.counters.legs['tools/call']).toBe(era === 'modern' ? 5 : 1);
  });
});
