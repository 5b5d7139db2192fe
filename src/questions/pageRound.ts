/**
 * The answer page on a round (2026-07-28, and the link channel of both eras): where a page's
 * answer replaces the client's, and how a page question goes on the wire.
 */
import type { InputRequest } from '@modelcontextprotocol/server';

import type { ElicitationResult } from './markers.js';
import { setOwn } from '../ownKeys.js';
import type { CallPages } from './pages.js';
import { acceptedUrlAnswer, pageUrlRequest } from './pages.js';
import { RejectedAnswer, readAnswerTo } from './read.js';
import type { Question } from './render.js';

/**
 * The answer a client without elicitation gave on the page of `question`, read as an in-band one:
 * `undefined` when there is none yet, or when the author's check refused it (asked again on a new
 * page: the answer was single use).
 */
export async function recallFromPage(
  callPages: CallPages,
  question: Question,
): Promise<ElicitationResult<unknown> | undefined> {
  const answer = await callPages.pages.take(callPages.call, question);
  if (answer === undefined) return undefined;
  try {
    return await readAnswerTo(question, answer);
  } catch (error) {
    if (error instanceof RejectedAnswer) return undefined;
    throw error;
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
