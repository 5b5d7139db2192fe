/**
 * The answer page on a round (2026-07-28, and the link channel of both eras): where a page's
 * answer replaces the client's, and how a page question goes on the wire.
 */
import type { InputRequest } from '@modelcontextprotocol/server';

import type { ToolError } from '../errors.js';

import type { ElicitationResult } from './markers.js';
import { setOwn } from '../ownKeys.js';
import type { CallPages } from './pages.js';
import { acceptedUrlAnswer, pageLinkError, pageUrlRequest } from './pages.js';
import { RejectedAnswer, readAnswerTo } from './read.js';
import type { Question } from './render.js';

/**
 * The answers a client without elicitation gave on pages, as one round of a call reads them. A call
 * again with the same arguments is a new call with no state: when it goes on to ask another question
 * on a page, the answers it took are put back, so the call after finds them all; a call that ends
 * used them up (each answer is single use).
 */
export class LinkAnswers {
  readonly #taken: Array<{ readonly question: Question; readonly answer: unknown }> = [];

  constructor(private readonly callPages: CallPages) {}

  /**
   * The page's answer to `question`, read as an in-band one: `undefined` when there is none yet, or
   * when the author's check refused it (asked again on a new page: the answer was single use).
   */
  async recall(question: Question): Promise<ElicitationResult<unknown> | undefined> {
    const answer = await this.callPages.pages.take(this.callPages.call, question);
    if (answer === undefined) return undefined;
    let read: ElicitationResult<unknown>;
    try {
      read = await readAnswerTo(question, answer);
    } catch (error) {
      if (error instanceof RejectedAnswer) return undefined;
      throw error;
    }
    this.#taken.push({ question, answer });
    return read;
  }

  /** The link result for `question`, at `url`, after putting back the answers this round took. */
  async linkError(question: Question, url: string): Promise<ToolError> {
    const { pages, call } = this.callPages;
    for (const taken of this.#taken.splice(0)) await pages.keep(call, taken.question, taken.answer);
    return pageLinkError(question, url);
  }
}

/**
 * This round's responses with the page's answer in place of the client's URL answer to `question`:
 * an accepted URL question stands for the page's answer (left out while the page has none, so the
 * question is asked again with the same page); a decline or cancel stays as the client sent it.
 */
export async function pageResponses(
  callPages: CallPages,
  question: Question,
  responses: Readonly<Record<string, unknown>> | undefined,
): Promise<Readonly<Record<string, unknown>> | undefined> {
  if (responses === undefined || !Object.hasOwn(responses, question.key)) return responses;
  if (!acceptedUrlAnswer(responses[question.key])) return responses;
  const answer = await callPages.pages.take(callPages.call, question);
  const replaced: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(responses)) if (key !== question.key) setOwn(replaced, key, value);
  if (answer !== undefined) setOwn(replaced, question.key, answer);
  return replaced;
}

/** The 2026-07-28 URL request for the page of `question` (that revision carries no elicitation id). */
export function pageUrlRequestOf(question: Question, url: string): InputRequest {
  return pageUrlRequest(question, url, '');
}
