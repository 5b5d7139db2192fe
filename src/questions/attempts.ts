/**
 * Attempts across calls and channels: a question's `attempts` (see `ElicitOptions`) bound the
 * refused answers one person may give to it within a window, whichever call or channel carries
 * them (in-band on either era, the answer page, the app, a task). Every channel reads a fresh
 * answer through {@link readCountedAnswer}, the one place answers are counted: a question whose
 * attempts are spent is refused, unread, until its window ends, so fresh calls do not reopen it.
 *
 * One counter per person, tool and question digest: the person is the principal, else the address
 * its host saw the request come from (an IPv6 /64). With neither (in process, or behind a proxy the
 * host cannot see past) nothing is counted across calls: each call bounds its own answers, since one
 * budget shared by every anonymous client would let one of them close a question for all.
 */
import type { InputRequest } from '@modelcontextprotocol/server';

import type { RoundServices } from '../context.js';
import { ToolError } from '../errors.js';
import { utf8 } from '../state/bytes.js';
import { defaultPrimitives } from '../state/primitives.js';
import type { AttemptCounter, AttemptTally } from '../state/attemptStore.js';
import { askKind, type ElicitationResult } from './markers.js';
import { RejectedAnswer, readAnswerTo } from './read.js';
import { askedAgain, attemptsOf } from './reask.js';
import type { Question } from './render.js';

const hashing = defaultPrimitives();

/** The key of `question`'s counter for `counter`'s person and tool (a digest: no principal or address in clear). */
function counterKeyOf(counter: AttemptCounter, person: string, question: Question): string {
  const text = `mcp-resolve attempts\n${person}\n${counter.target}\n${question.rendered.digest}`;
  return hashing.encodeBase64url(hashing.sha256([utf8(text)]));
}

/** A window's length in words: whole minutes, else whole seconds, else milliseconds. */
function windowWords(windowMs: number): string {
  if (windowMs % 60_000 === 0) return `${windowMs / 60_000} minute${windowMs === 60_000 ? '' : 's'}`;
  if (windowMs % 1_000 === 0) return `${windowMs / 1_000} s`;
  return `${windowMs} ms`;
}

/** When answers are taken again, in words: the instant and the seconds from now. */
function retryWords(tally: AttemptTally): string {
  const seconds = Math.max(1, Math.ceil(tally.retryMs / 1_000));
  return `no answer to it is taken until ${new Date(Date.now() + seconds * 1_000).toISOString()} (retry in ${seconds} s)`;
}

/**
 * The error of a question whose attempts are spent: `refused` when this answer spent the last one
 * (its message, then why no more are taken), else the question was closed already and this answer
 * was not read.
 */
export class AttemptsSpent extends ToolError {
  constructor(label: string, limit: number, windowMs: number, tally: AttemptTally, refused?: RejectedAnswer) {
    const spent = `${limit} answer${limit === 1 ? '' : 's'} refused within ${windowWords(windowMs)}`;
    super(
      refused === undefined
        ? `Resolver '${label}': this question takes no more answers for now (${spent}): ${retryWords(tally)}.`
        : `${refused.message} That was the last attempt (${spent}): ${retryWords(tally)}.`,
    );
    this.name = 'AttemptsSpent';
  }
}

/**
 * Reads `response` as the answer to `question` (`readAnswerTo`), counting it against the person's
 * attempts at the question first (atomically, so concurrent answers cannot read more than
 * `attempts` in a window) and taking the count back when it is not refused. In one process a
 * counter's answers are read one at a time, so answers in flight together are never refused for
 * one another; across a fleet, as many as there are instances may be in flight at once. A refused answer that
 * leaves attempts throws its `RejectedAnswer` (the question is asked again); one that spends the
 * last, or any answer once they are spent, throws {@link AttemptsSpent}, which ends the call.
 */
export async function readCountedAnswer(
  round: RoundServices,
  question: Question,
  response: unknown,
): Promise<ElicitationResult<unknown>> {
  const counter = round.attempts;
  const person = counter?.person();
  if (counter === undefined || person === undefined || askKind(question.ask) !== 'elicit')
    return readAnswerTo(question, response);
  const { store, windowMs, turns } = counter.attempts;
  const limit = attemptsOf(question.ask);
  const key = counterKeyOf(counter, person, question);
  // One at a time per counter in this process: answers in flight together are read in turn, never refused for one another.
  return turns.run(key, async () => {
    const tally = await store.count(key, windowMs);
    if (tally.count > limit) throw new AttemptsSpent(question.label, limit, windowMs, tally);
    try {
      const outcome = await readAnswerTo(question, response);
      await store.uncount(key);
      return outcome;
    } catch (error) {
      if (!(error instanceof RejectedAnswer)) {
        await store.uncount(key);
        throw error;
      }
      if (tally.count >= limit) throw new AttemptsSpent(question.label, limit, windowMs, tally, error);
      throw error;
    }
  });
}

/** What asking a question once gave: the raw answer to read, or the outcome that ends the asking as it is. */
export type AskedOnce = { readonly answer: unknown } | { readonly ended: ElicitationResult<unknown> };

/**
 * Asks `question` in process until an answer is read (the 2025-11-25 push, in-band or to a page):
 * `ask` shows `request` (the question's own, then asked again with the reason of the refused
 * answer above it) and gives what came back; a refused answer asks again until the question's
 * attempts run out, then its refusal is thrown.
 */
export async function askUntilRead(
  round: RoundServices,
  question: Question,
  ask: (request: InputRequest, attempt: number) => Promise<AskedOnce>,
): Promise<ElicitationResult<unknown>> {
  const attempts = attemptsOf(question.ask);
  let request = question.rendered.request;
  for (let attempt = 1; ; attempt++) {
    const asked = await ask(request, attempt);
    if ('ended' in asked) return asked.ended;
    try {
      return await readCountedAnswer(round, question, asked.answer);
    } catch (error) {
      if (!(error instanceof RejectedAnswer) || attempt >= attempts) throw error;
      request = askedAgain(question.rendered.request, error.reason);
    }
  }
}
