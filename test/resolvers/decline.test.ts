/** resolvers.md §7 [F]: declines and cancels abort unwrapped consumers, reach outcome consumers, and are recorded like answers. */
import type { ElicitResult } from '@modelcontextprotocol/client';
import { elicit, outcome, resolver, sample } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { accept, asked, call, completed, connect, connectManual, ERAS, newServer, sampled, textOf } from './helpers.js';

const Confirm = z.object({ confirm: z.boolean() });
const Pick = z.object({ pick: z.string() });

/** Answers each question by its message: the listed action, else accept with `{ pick: message }`. */
function scripted(actions: Record<string, ElicitResult>, asked: string[] = []) {
  return (params: { message: string }): ElicitResult => {
    asked.push(params.message);
    return actions[params.message] ?? { action: 'accept', content: { pick: params.message } };
  };
}

describe.each(ERAS)('decline and cancel (%s)', (era) => {
  describe.each(['decline', 'cancel'] as const)('%s', (action) => {
    it(`[F1] an unwrapped tool parameter aborts the call on ${action}: the body never runs`, async () => {
      let bodyRuns = 0;
      const ask = resolver({ name: 'askScope' }, () => elicit('Scope?', Pick));
      const server = newServer().tool('t', { resolve: { scope: ask } }, () => {
        bodyRuns++;
        return 'ran';
      });
      const connection = await connect(server, { era, elicit: () => ({ action }) });
      const result = await call(connection, 't');
      expect(result.isError).toBe(true);
      // The reference SDK's text first, verbatim, then a sentence naming the question.
      expect(textOf(result)).toBe(
        `Resolver for parameter 'scope' could not resolve: elicitation was ${action}. "Scope?" was ${action === 'decline' ? 'declined' : 'cancelled'}, so the call stopped.`,
      );
      expect(bodyRuns).toBe(0);
    });

    it(`[F1] when the unwrapped consumer is a resolver, the message names its dependency (${action})`, async () => {
      let consumerRuns = 0;
      const ask = resolver({ name: 'askScope' }, () => elicit('Scope?', Pick));
      const amount = resolver({ name: 'amount', deps: { chosenScope: ask } }, ({ chosenScope }) => {
        consumerRuns++;
        return chosenScope.pick.length;
      });
      const server = newServer().tool('t', { resolve: { cents: amount } }, ({ cents }) => `${cents}`);
      const connection = await connect(server, { era, elicit: () => ({ action }) });
      const result = await call(connection, 't');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        new RegExp(
          `^Resolver for parameter 'chosenScope' could not resolve: elicitation was ${action}\\. "Scope\\?" was`,
        ),
      );
      expect(consumerRuns).toBe(0);
    });

    it(`[F2] an outcome consumer runs and branches on ${action} (tool and resolver alike)`, async () => {
      const ask = resolver({ name: 'askRestock' }, () => elicit('Restock?', Confirm));
      const label = resolver({ name: 'label', deps: { restock: outcome(ask) } }, ({ restock }) =>
        restock.action === 'accept' ? `restock=${restock.value.confirm}` : `no answer (${restock.action})`,
      );
      const server = newServer().tool(
        't',
        { resolve: { restock: outcome(ask), label } },
        ({ restock, label: text }) => `${restock.action}|${text}`,
      );
      const connection = await connect(server, { era, elicit: () => ({ action }) });
      const result = await call(connection, 't');
      expect(result.isError).not.toBe(true);
      expect(textOf(result)).toBe(`${action}|no answer (${action})`);
      expect(connection.counters.questions).toEqual({ 'elicitation/create': 1 });
    });
  });

  it('[F3] accepting with a "no" value is an answer, not a refusal', async () => {
    let bodyRuns = 0;
    const ask = resolver({ name: 'askConfirm' }, () => elicit('Confirm?', Confirm));
    const server = newServer().tool('t', { resolve: { confirm: ask, seen: outcome(ask) } }, ({ confirm, seen }) => {
      bodyRuns++;
      return `${confirm.confirm}|${seen.action}`;
    });
    const connection = await connect(server, {
      era,
      elicit: () => ({ action: 'accept', content: { confirm: false } }),
    });
    const result = await call(connection, 't');
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe('false|accept');
    expect(bodyRuns).toBe(1);
  });

  it('[F4] a decline is recorded like an answer: later rounds never ask it again', async () => {
    const first = resolver({ name: 'first' }, () => elicit('First?', Pick));
    const second = resolver({ name: 'second', deps: { first: outcome(first) } }, ({ first: f }) =>
      elicit(`Second after ${f.action}?`, Pick),
    );
    const third = resolver({ name: 'third', deps: { second, first: outcome(first) } }, ({ second: s, first: f }) =>
      elicit(`Third after ${s.pick} and ${f.action}?`, Pick),
    );
    const server = newServer().tool(
      't',
      { resolve: { first: outcome(first), third } },
      ({ first: f, third: t }) => `${f.action}|${t.pick}`,
    );
    const questions: string[] = [];
    const connection = await connect(server, { era, elicit: scripted({ 'First?': { action: 'decline' } }, questions) });
    expect(textOf(await call(connection, 't'))).toBe('decline|Third after Second after decline? and decline?');
    expect(questions).toEqual(['First?', 'Second after decline?', 'Third after Second after decline? and decline?']);
    expect(connection.counters.legs['tools/call']).toBe(era === 'modern' ? 4 : 1);
  });

  it('[F5] resolved parameters are visited in declaration order: resolvers after the aborting consumer never run', async () => {
    const events: string[] = [];
    const ask = resolver({ name: 'ask' }, () => {
      events.push('ask');
      return elicit('Go?', Pick);
    });
    const later = resolver({ name: 'later' }, () => {
      events.push('later');
      return 1;
    });
    const server = newServer().tool('t', { resolve: { go: ask, later } }, () => {
      events.push('body');
      return 'ran';
    });
    const connection = await connect(server, { era, elicit: () => (events.push('declined'), { action: 'decline' }) });
    const result = await call(connection, 't');
    expect(textOf(result)).toContain("Resolver for parameter 'go' could not resolve");
    // Nothing new runs once the decline is seen (`later` ran before the answer, while the question was open;
    // on modern the handler is re-entered, so `ask` runs again to find its recorded answer).
    const afterDecline = events.slice(events.indexOf('declined') + 1);
    expect(afterDecline.filter((event) => event !== 'ask')).toEqual([]);
    expect(events).not.toContain('body');
  });

  it("[F5] the first unwrapped consumer in declaration order aborts; a later one's question is never asked after the decline", async () => {
    const askA = resolver({ name: 'askA' }, () => elicit('A?', Pick));
    const askB = resolver({ name: 'askB' }, () => elicit('B?', Pick));
    const server = newServer().tool('t', { resolve: { first: askA, second: askB } }, () => 'ran');
    const questions: string[] = [];
    const connection = await connect(server, {
      era,
      elicit: scripted({ 'A?': { action: 'decline' }, 'B?': { action: 'cancel' } }, questions),
    });
    const result = await call(connection, 't');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Resolver for parameter 'first' could not resolve");
    expect(textOf(result)).not.toContain("'second'");
    // Nothing is asked once the decline is seen. Modern sends independent questions together, before
    // any answer exists, so B went out with A; legacy pushes them one by one and stops at A's decline.
    expect(questions).toEqual(era === 'modern' ? ['A?', 'B?'] : ['A?']);
  });

  it("[F5] after a decline that ends the call, a sibling sampling question never reaches the client's LLM", async () => {
    const askA = resolver({ name: 'askA' }, () => elicit('A?', Pick));
    const summary = resolver({ name: 'summary' }, () =>
      sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the order.' } }], maxTokens: 50 }),
    );
    const server = newServer().tool('t', { resolve: { first: askA, summary } }, () => 'ran');
    const questions: string[] = [];
    const connection = await connect(server, {
      era,
      elicit: scripted({ 'A?': { action: 'decline' } }, questions),
      sample: () => (questions.push('LLM'), sampled('a summary')),
    });
    expect(textOf(await call(connection, 't'))).toContain("Resolver for parameter 'first' could not resolve");
    expect(questions).toEqual(era === 'modern' ? ['A?', 'LLM'] : ['A?']);
  });

  it('[F2] a decline an outcome consumer takes does not stop the questions after it', async () => {
    const askA = resolver({ name: 'askA' }, () => elicit('A?', Pick));
    const askB = resolver({ name: 'askB' }, () => elicit('B?', Pick));
    const server = newServer().tool(
      't',
      { resolve: { first: outcome(askA), second: askB } },
      ({ first, second }) => `${first.action} then ${second.pick}`,
    );
    const questions: string[] = [];
    const connection = await connect(server, { era, elicit: scripted({ 'A?': { action: 'decline' } }, questions) });
    expect(textOf(await call(connection, 't'))).toBe('decline then B?');
    expect(questions).toEqual(['A?', 'B?']);
  });

  it("[F5] a resolver's dependencies are visited in declaration order: the first declined dependency aborts, later ones never run", async () => {
    const events: string[] = [];
    const declined = resolver({ name: 'declined' }, () => {
      events.push('declined');
      return elicit('Declined?', Pick);
    });
    const afterDep = resolver({ name: 'afterDep' }, () => {
      events.push('afterDep');
      return 2;
    });
    const consumer = resolver({ name: 'consumer', deps: { early: declined, late: afterDep } }, () => {
      events.push('consumer');
      return 3;
    });
    const trailing = resolver({ name: 'trailing' }, () => {
      events.push('trailing');
      return 4;
    });
    const server = newServer().tool('t', { resolve: { consumer, trailing } }, () => 'ran');
    const connection = await connect(server, { era, elicit: () => (events.push('answered'), { action: 'decline' }) });
    const result = await call(connection, 't');
    expect(textOf(result)).toContain("Resolver for parameter 'early' could not resolve");
    // After the decline, only the declined resolver itself may run again (modern re-entry); nothing after it.
    const afterDecline = events.slice(events.indexOf('answered') + 1);
    expect(afterDecline.filter((event) => event !== 'declined')).toEqual([]);
    expect(events).not.toContain('consumer');
  });
});

describe('decline across rounds on the wire (modern only: rounds exist only there)', () => {
  it('[F4] a recorded decline stays recorded: the declined question is not in any later inputRequests', async () => {
    const first = resolver({ name: 'first' }, () => elicit('First?', Pick));
    const second = resolver({ name: 'second', deps: { first: outcome(first) } }, ({ first: f }) =>
      elicit(`After ${f.action}?`, Pick),
    );
    const third = resolver({ name: 'third', deps: { second } }, ({ second: s }) => elicit(`Then ${s.pick}?`, Pick));
    const server = newServer().tool(
      't',
      { resolve: { f: outcome(first), third } },
      ({ f, third: t }) => `${f.action}|${t.pick}`,
    );
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    expect(Object.keys(r1.inputRequests)).toEqual(['first']);
    const r2 = asked(
      await manual.round('t', {}, { inputResponses: { first: { action: 'decline' } }, requestState: r1.requestState }),
    );
    expect(Object.keys(r2.inputRequests)).toEqual(['second']);
    const r3 = asked(
      await manual.round('t', {}, { inputResponses: { second: accept({ pick: 's' }) }, requestState: r2.requestState }),
    );
    expect(Object.keys(r3.inputRequests)).toEqual(['third']);
    const done = completed(
      await manual.round('t', {}, { inputResponses: { third: accept({ pick: 't' }) }, requestState: r3.requestState }),
    );
    expect(textOf(done)).toBe('decline|t');
  });
});
