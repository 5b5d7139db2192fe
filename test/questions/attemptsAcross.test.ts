/**
 * `attempts` across calls and channels: a 4-digit lock checked by a resolver takes 3 refused
 * guesses per person and window, whichever call, era or channel carries them (in-band on both
 * eras, the app in the chat); fresh calls do not reopen it, another person is not affected, and
 * the window's end does. The page link and a fleet sharing Redis: attemptsPages.int.test.ts.
 */
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/client';
import { elicit, resolver } from 'mcp-resolve';
import type { McpResolveServerOptions } from 'mcp-resolve';
import { createMemoryAttemptStore } from 'mcp-resolve/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { ANSWER_TOOL, QUESTION_META, TICKET_META } from '../../src/apps/wire.js';
import type { AppQuestion } from '../../src/apps/wire.js';
import { APPS_ONLY, submission } from '../apps/helpers.js';
import { call, connect, ERAS, newServer, textOf } from '../resolvers/helpers.js';
import { closedQuestion, lastAttempt } from './spent.js';

const Code = z.object({ code: z.string().meta({ title: 'Code' }) });
const WRONG = "Resolver 'code': the answer was not accepted. That is not the code.";

/** A lock whose `unlock` tool asks for a 4-digit code (`4821`), 3 attempts; `principal` names who calls (alice until changed). */
function lock(options: McpResolveServerOptions = {}) {
  const who = { principal: 'alice' as string | undefined };
  const code = resolver({ name: 'code' }, () =>
    elicit('Enter the code', Code, {
      attempts: 3,
      check: ({ code: guess }) => (guess === '4821' ? undefined : 'That is not the code.'),
    }),
  );
  const server = newServer({ principal: () => who.principal, ...options }).tool(
    'unlock',
    { resolve: { code } },
    () => 'Unlocked',
  );
  return { server, who };
}

/** A person who types each guess in turn (then cancels). */
function guesses(...codes: string[]) {
  return (): ElicitResult => {
    const next = codes.shift();
    return next === undefined ? { action: 'cancel' } : { action: 'accept', content: { code: next } };
  };
}

describe.each(ERAS)('attempts across calls, in-band (%s)', (era) => {
  it('refuses a fresh call once 3 guesses were refused, with the retry time', async () => {
    const { server } = lock();
    const first = await connect(server, { era, elicit: guesses('0000', '0001', '0002') });
    expect(textOf(await call(first, 'unlock'))).toMatch(lastAttempt(WRONG));
    // A fresh call (a fresh connection) with the right code: refused unread.
    const fresh = await connect(server, { era, elicit: guesses('4821') });
    const refused = await call(fresh, 'unlock');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(closedQuestion('code'));
    expect(textOf(refused)).toContain('(retry in 900 s)');
  });

  it('counts guesses spread over calls: 2 then 1 close it', async () => {
    const { server } = lock();
    const first = await connect(server, { era, elicit: guesses('0000', '0001') });
    await call(first, 'unlock');
    const second = await connect(server, { era, elicit: guesses('0002') });
    expect(textOf(await call(second, 'unlock'))).toMatch(lastAttempt(WRONG));
    const third = await connect(server, { era, elicit: guesses('4821') });
    expect(textOf(await call(third, 'unlock'))).toMatch(closedQuestion('code'));
  });

  it('takes every right answer of one person in flight at once: none is refused for the others', async () => {
    const { server } = lock();
    const connections = await Promise.all(
      Array.from({ length: 6 }, () => connect(server, { era, elicit: guesses('4821') })),
    );
    const texts = await Promise.all(connections.map(async (connection) => textOf(await call(connection, 'unlock'))));
    expect(texts).toEqual(Array.from({ length: 6 }, () => 'Unlocked'));
  });

  it('counts nothing across calls for a caller with no principal and no address: each call bounds its own', async () => {
    const { server, who } = lock();
    who.principal = undefined;
    const first = await connect(server, { era, elicit: guesses('0000', '0001', '0002') });
    expect(textOf(await call(first, 'unlock'))).toBe(WRONG);
    const fresh = await connect(server, { era, elicit: guesses('4821') });
    expect(textOf(await call(fresh, 'unlock'))).toBe('Unlocked');
  });

  it('leaves another principal unaffected, and takes answers again once the window ends', async () => {
    let now = 1_000_000;
    const { server, who } = lock({
      answerAttempts: { store: createMemoryAttemptStore({ now: () => now }), windowMs: 60_000 },
    });
    who.principal = 'mallory';
    const mallory = await connect(server, { era, elicit: guesses('0000', '0001', '0002', '4821') });
    expect(textOf(await call(mallory, 'unlock'))).toMatch(lastAttempt(WRONG, 3, '1 minute'));
    expect(textOf(await call(mallory, 'unlock'))).toMatch(closedQuestion('code', 3, '1 minute'));
    who.principal = 'alice';
    const alice = await connect(server, { era, elicit: guesses('4821') });
    expect(textOf(await call(alice, 'unlock'))).toBe('Unlocked');
    who.principal = 'mallory';
    now += 60_000;
    const later = await connect(server, { era, elicit: guesses('4821') });
    expect(textOf(await call(later, 'unlock'))).toBe('Unlocked');
  });
});

/** The question a hand-off result carries for the app. */
function appQuestionOf(result: CallToolResult): AppQuestion {
  const question = result._meta?.[QUESTION_META] as AppQuestion | undefined;
  if (question === undefined) return expect.fail(`expected a question for the app, got: ${textOf(result)}`);
  return question;
}

describe.each(ERAS)('attempts across calls, in the app (%s)', (era) => {
  it('refuses the answer after 3 refused ones, also from fresh calls', async () => {
    const { server } = lock({ apps: {} });
    const connection = await connect(server, { era, capabilities: APPS_ONLY });
    const answer = (question: AppQuestion, code: string) =>
      connection.client.callTool({ name: ANSWER_TOOL, arguments: { page: question.page, form: submission({ code }) } });
    const rerun = (question: AppQuestion) =>
      connection.client.callTool({ name: 'unlock', arguments: {}, _meta: { [TICKET_META]: question.ticket } });
    let question = appQuestionOf(await call(connection, 'unlock'));
    for (const guess of ['0000', '0001']) {
      await answer(question, guess);
      question = appQuestionOf(await rerun(question));
    }
    await answer(question, '0002');
    expect(textOf(await rerun(question))).toMatch(lastAttempt(WRONG));
    // A fresh call gets a fresh ticket and page; the right code given there is refused unread.
    const fresh = appQuestionOf(await call(connection, 'unlock'));
    await answer(fresh, '4821');
    expect(textOf(await rerun(fresh))).toMatch(closedQuestion('code'));
  });

  it('takes no ticket the client chose itself: the call gets one the server minted', async () => {
    const { server } = lock({ apps: {} });
    const connection = await connect(server, { era, capabilities: APPS_ONLY });
    const chosen = 'A'.repeat(64);
    const result = await connection.client.callTool({
      name: 'unlock',
      arguments: {},
      _meta: { [TICKET_META]: chosen },
    });
    const question = appQuestionOf(result);
    expect(question.ticket).not.toBe(chosen);
    expect(question.ticket).toMatch(/^[A-Za-z0-9_-]{44}$/);
    // The minted ticket is taken back: the next hand-off carries the same one.
    const again = appQuestionOf(
      await connection.client.callTool({ name: 'unlock', arguments: {}, _meta: { [TICKET_META]: question.ticket } }),
    );
    expect(again.ticket).toBe(question.ticket);
    // A forged tag on a well-formed ticket is not taken either.
    const forged = `${question.ticket.slice(0, 22)}${'B'.repeat(22)}`;
    const replaced = appQuestionOf(
      await connection.client.callTool({ name: 'unlock', arguments: {}, _meta: { [TICKET_META]: forged } }),
    );
    expect(replaced.ticket).not.toBe(forged);
  });
});
