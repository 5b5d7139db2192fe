/**
 * resolvers.md §9 [H]: every recorded answer is pinned to the exact question it answers.
 * Modern only: pinning is about answers carried across rounds, which legacy calls do not have.
 */
import { randomBytes } from 'node:crypto';

import { elicit, McpResolveServer, outcome, resolver, sample } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  accept,
  asked,
  call,
  completed,
  connect,
  connectManual,
  INFO,
  messageOf,
  newServer,
  sampled,
  sampleText,
  schemaKeysOf,
  textOf,
} from './helpers.js';

const Pick = z.object({ pick: z.string() });
const PickWithNote = z.object({ pick: z.string(), note: z.string().optional() });

describe('question pinning (modern only: answers cross rounds only there)', () => {
  it('[H1] a question reworded between rounds is asked again; the other answer of the round survives', async () => {
    let wording = 'Colour';
    const fixed = resolver({ name: 'fixed' }, () => elicit('Size?', Pick));
    const reworded = resolver({ name: 'reworded' }, () => elicit(`${wording}?`, Pick));
    const server = newServer().tool(
      't',
      { resolve: { fixed, reworded } },
      ({ fixed: f, reworded: r }) => `${f.pick}|${r.pick}`,
    );
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    expect(Object.keys(r1.inputRequests).sort()).toEqual(['fixed', 'reworded']);
    wording = 'Shade'; // a redeploy between rounds
    const r2 = asked(
      await manual.round(
        't',
        {},
        {
          inputResponses: { fixed: accept({ pick: 'L' }), reworded: accept({ pick: 'stale red' }) },
          requestState: r1.requestState,
        },
      ),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['reworded']);
    expect(messageOf(r2.inputRequests.reworded)).toBe('Shade?');
    const done = completed(
      await manual.round(
        't',
        {},
        { inputResponses: { reworded: accept({ pick: 'blue' }) }, requestState: r2.requestState },
      ),
    );
    expect(textOf(done)).toBe('L|blue');
  });

  it('[H1] an answer recorded in an earlier round is dropped when its question is reworded later; the rest survives', async () => {
    let wording = 'First';
    const kept = resolver({ name: 'kept' }, () => elicit('Kept?', Pick));
    const first = resolver({ name: 'first' }, () => elicit(`${wording}?`, Pick));
    const second = resolver({ name: 'second', deps: { first } }, ({ first: f }) =>
      elicit(`Second after ${f.pick}?`, Pick),
    );
    const server = newServer().tool(
      't',
      { resolve: { kept, second, first } },
      ({ kept: k, second: s, first: f }) => `${k.pick}|${f.pick}|${s.pick}`,
    );
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    const r2 = asked(
      await manual.round(
        't',
        {},
        {
          inputResponses: { kept: accept({ pick: 'k' }), first: accept({ pick: 'old' }) },
          requestState: r1.requestState,
        },
      ),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['second']);
    wording = 'First, reworded';
    const r3 = asked(
      await manual.round(
        't',
        {},
        { inputResponses: { second: accept({ pick: 'stale' }) }, requestState: r2.requestState },
      ),
    );
    expect(Object.keys(r3.inputRequests)).toEqual(['first']);
    expect(messageOf(r3.inputRequests.first)).toBe('First, reworded?');
    const r4 = asked(
      await manual.round(
        't',
        {},
        { inputResponses: { first: accept({ pick: 'new' }) }, requestState: r3.requestState },
      ),
    );
    expect(Object.keys(r4.inputRequests)).toEqual(['second']);
    expect(messageOf(r4.inputRequests.second)).toBe('Second after new?');
    const done = completed(
      await manual.round('t', {}, { inputResponses: { second: accept({ pick: 's' }) }, requestState: r4.requestState }),
    );
    expect(textOf(done)).toBe('k|new|s');
  });

  it('[H1] a question reshaped (same message, new schema) between rounds is asked again', async () => {
    let schema: typeof Pick | typeof PickWithNote = Pick;
    const ask = resolver({ name: 'ask' }, () => elicit('Pick?', schema));
    const server = newServer().tool('t', { resolve: { ask } }, ({ ask: a }) => a.pick);
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    schema = PickWithNote;
    const r2 = asked(
      await manual.round(
        't',
        {},
        { inputResponses: { ask: accept({ pick: 'stale' }) }, requestState: r1.requestState },
      ),
    );
    expect(messageOf(r2.inputRequests.ask)).toBe('Pick?');
    expect(schemaKeysOf(r2.inputRequests.ask)).toEqual(['pick', 'note']);
    const done = completed(
      await manual.round(
        't',
        {},
        { inputResponses: { ask: accept({ pick: 'fresh' }) }, requestState: r2.requestState },
      ),
    );
    expect(textOf(done)).toBe('fresh');
  });

  it('[H1] changed sampling parameters are a new question: the old completion is not consumed', async () => {
    let prompt = 'a haiku';
    const poem = resolver({ name: 'poem' }, () =>
      sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 20 }),
    );
    const server = newServer().tool('t', { resolve: { poem } }, ({ poem: p }) => sampleText(p));
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    prompt = 'a limerick';
    const r2 = asked(
      await manual.round('t', {}, { inputResponses: { poem: sampled('old haiku') }, requestState: r1.requestState }),
    );
    const request = r2.inputRequests.poem;
    expect(request?.method).toBe('sampling/createMessage');
    expect(JSON.stringify(request)).toContain('a limerick');
    const done = completed(
      await manual.round('t', {}, { inputResponses: { poem: sampled('a limerick!') }, requestState: r2.requestState }),
    );
    expect(textOf(done)).toBe('a limerick!');
  });

  it('[H1] a redeploy mid-flow (another server instance, shared sealing keys, reworded question) asks again', async () => {
    const keys = [randomBytes(32).toString('hex')];
    const deploy = (wording: string) => {
      const fixed = resolver({ name: 'fixed' }, () => elicit('Size?', Pick));
      const reworded = resolver({ name: 'reworded' }, () => elicit(wording, Pick));
      return new McpResolveServer(INFO, { requestState: { keys } }).tool(
        't',
        { resolve: { fixed, reworded } },
        ({ fixed: f, reworded: r }) => `${f.pick}|${r.pick}`,
      );
    };
    const before = await connectManual(deploy('Colour?'));
    const after = await connectManual(deploy('Which shade?'));
    const r1 = asked(await before.round('t', {}));
    const r2 = asked(
      await after.round(
        't',
        {},
        {
          inputResponses: { fixed: accept({ pick: 'L' }), reworded: accept({ pick: 'stale' }) },
          requestState: r1.requestState,
        },
      ),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['reworded']);
    expect(messageOf(r2.inputRequests.reworded)).toBe('Which shade?');
    const done = completed(
      await after.round(
        't',
        {},
        { inputResponses: { reworded: accept({ pick: 'teal' }) }, requestState: r2.requestState },
      ),
    );
    expect(textOf(done)).toBe('L|teal');
  });

  // Deviation from resolvers.md 9.2, required by the conformance issue (ignore-extra-params): a request
  // with no requestState at all may answer a question that depends on no earlier answer.
  it('[H2] with no state at all, an answer to a first-round question is consumed (validated)', async () => {
    let bodyRuns = 0;
    const ask = resolver({ name: 'ask' }, () => elicit('Pick?', Pick));
    const server = newServer().tool('t', { resolve: { ask } }, ({ ask: a }) => {
      bodyRuns++;
      return a.pick;
    });
    const manual = await connectManual(server);
    const done = completed(await manual.round('t', {}, { inputResponses: { ask: accept({ pick: 'no state' }) } }));
    expect(textOf(done)).toBe('no state');
    expect(bodyRuns).toBe(1);
  });

  it('[H2] with state present, an answer to a question the state does not say was asked is not consumed', async () => {
    const first = resolver({ name: 'first' }, () => elicit('First?', Pick));
    const second = resolver({ name: 'second', deps: { first } }, ({ first: f }) => elicit(`After ${f.pick}?`, Pick));
    const server = newServer().tool('t', { resolve: { second } }, ({ second: s }) => s.pick);
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    expect(Object.keys(r1.inputRequests)).toEqual(['first']);
    // Round 2 also answers 'second' up front; the state says only 'first' was asked, so 'second' is asked.
    const r2 = asked(
      await manual.round(
        't',
        {},
        {
          inputResponses: { first: accept({ pick: 'a' }), second: accept({ pick: 'early' }) },
          requestState: r1.requestState,
        },
      ),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['second']);
  });

  it('[H2] a dependent question answered without the echoed state is asked from the start again', async () => {
    const first = resolver({ name: 'first' }, () => elicit('First?', Pick));
    const second = resolver({ name: 'second', deps: { first } }, ({ first: f }) =>
      elicit(`Second after ${f.pick}?`, Pick),
    );
    const server = newServer().tool('t', { resolve: { second } }, ({ second: s }) => s.pick);
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    const r2 = asked(
      await manual.round('t', {}, { inputResponses: { first: accept({ pick: 'a' }) }, requestState: r1.requestState }),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['second']);
    // The second answer arrives with no state: nothing proves 'second' was asked, and 'first' is unknown again.
    const r3 = asked(await manual.round('t', {}, { inputResponses: { second: accept({ pick: 'b' }) } }));
    expect(Object.keys(r3.inputRequests)).toEqual(['first']);
  });

  it('[H2] an answer to a question not asked in the previous round is not consumed (a recorded answer is not overwritten)', async () => {
    const first = resolver({ name: 'first' }, () => elicit('First?', Pick));
    const second = resolver({ name: 'second', deps: { first } }, ({ first: f }) =>
      elicit(`Second after ${f.pick}?`, Pick),
    );
    const server = newServer().tool(
      't',
      { resolve: { second, first } },
      ({ second: s, first: f }) => `${f.pick}|${s.pick}`,
    );
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    const r2 = asked(
      await manual.round(
        't',
        {},
        { inputResponses: { first: accept({ pick: 'original' }) }, requestState: r1.requestState },
      ),
    );
    const done = completed(
      await manual.round(
        't',
        {},
        {
          inputResponses: { first: accept({ pick: 'overwritten' }), second: accept({ pick: 's' }) },
          requestState: r2.requestState,
        },
      ),
    );
    expect(textOf(done)).toBe('original|s');
  });

  it('[H3] a stale decline of the old wording does not abort: the reworded question is asked', async () => {
    let wording = 'Proceed?';
    const ask = resolver({ name: 'ask' }, () => elicit(wording, Pick));
    const server = newServer().tool('t', { resolve: { go: ask } }, ({ go }) => go.pick);
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    wording = 'Proceed with the new terms?';
    const r2 = asked(
      await manual.round('t', {}, { inputResponses: { ask: { action: 'decline' } }, requestState: r1.requestState }),
    );
    expect(messageOf(r2.inputRequests.ask)).toBe('Proceed with the new terms?');
    const done = completed(
      await manual.round('t', {}, { inputResponses: { ask: accept({ pick: 'yes' }) }, requestState: r2.requestState }),
    );
    expect(done.isError).not.toBe(true);
    expect(textOf(done)).toBe('yes');
  });

  it('[H3] a recorded decline does not suppress the question once it is reworded', async () => {
    let wording = 'Gift wrap?';
    const wrap = resolver({ name: 'wrap' }, () => elicit(wording, Pick));
    const note = resolver({ name: 'note', deps: { wrap: outcome(wrap) } }, ({ wrap: w }) =>
      elicit(`Note (wrap ${w.action})?`, Pick),
    );
    const server = newServer().tool(
      't',
      { resolve: { wrap: outcome(wrap), note } },
      ({ wrap: w, note: n }) => `${w.action === 'accept' ? w.value.pick : w.action}|${n.pick}`,
    );
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    const r2 = asked(
      await manual.round('t', {}, { inputResponses: { wrap: { action: 'decline' } }, requestState: r1.requestState }),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['note']);
    wording = 'Gift wrap (now free)?';
    const r3 = asked(
      await manual.round('t', {}, { inputResponses: { note: accept({ pick: 'n' }) }, requestState: r2.requestState }),
    );
    expect(Object.keys(r3.inputRequests)).toEqual(['wrap']);
    expect(messageOf(r3.inputRequests.wrap)).toBe('Gift wrap (now free)?');
    const r4 = asked(
      await manual.round('t', {}, { inputResponses: { wrap: accept({ pick: 'yes' }) }, requestState: r3.requestState }),
    );
    expect(messageOf(r4.inputRequests.note)).toBe('Note (wrap accept)?');
    const done = completed(
      await manual.round('t', {}, { inputResponses: { note: accept({ pick: 'hi' }) }, requestState: r4.requestState }),
    );
    expect(textOf(done)).toBe('yes|hi');
  });

  it('[H4] a question built from a fresh value fails the call once it changed twice in a row (not at the round cap)', async () => {
    let fresh = 0;
    const ask = resolver({ name: 'ask' }, () => elicit(`Confirm request #${++fresh}?`, Pick));
    const server = newServer().tool('t', { resolve: { ask } }, ({ ask: a }) => a.pick);
    const connection = await connect(server, {
      era: 'modern',
      maxRounds: 10,
      elicit: () => ({ action: 'accept', content: { pick: 'yes' } }),
    });
    const result = await call(connection, 't');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('(docs/guides/resolvers.md, "The determinism rule")');
    expect(connection.counters.questions).toEqual({ 'elicitation/create': 2 });
  });

  it('[H4] the same question derived deterministically from arguments and earlier answers completes', async () => {
    const ask = resolver({ name: 'ask', args: { id: z.string() } }, ({ id }) => elicit(`Confirm request ${id}?`, Pick));
    const server = newServer().tool('t', { input: { id: z.string() }, resolve: { ask } }, ({ ask: a }) => a.pick);
    const connection = await connect(server, {
      era: 'modern',
      maxRounds: 3,
      elicit: () => ({ action: 'accept', content: { pick: 'yes' } }),
    });
    expect(textOf(await call(connection, 't', { id: 'r-1' }))).toBe('yes');
    expect(connection.counters.legs['tools/call']).toBe(2);
  });
});
