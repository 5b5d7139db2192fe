/**
 * A form question asked through its answer page on a 2025-11-25 connection whose client declares
 * URL elicitation only: a URL-mode push sends the person to the page; once they accepted, the call
 * waits for the page's answer, reports the elicitation complete, and reads the answer exactly as an
 * in-band one. A refused answer is asked again on a new page, with the question's attempts.
 */
import { elicitationCompleter, type ToolContext } from '../context.js';
import { ToolError } from '../errors.js';
import type { ElicitationResult } from './markers.js';
import { elicitUrl } from './markers.js';
import type { CallPages } from './pages.js';
import { formMessageOf } from './pages.js';
import { pushQuestion } from './push.js';
import { RejectedAnswer, readAnswerTo } from './read.js';
import { attemptsOf } from './reask.js';
import type { Question } from './render.js';
import { renderQuestion } from './render.js';
import { newElicitationSeed } from './urlQuestion.js';

/** How often a waiting call looks for the page's answer, in ms. */
export const PAGE_POLL_MS = 500;

/** The page's answer, once given, or `undefined` when `timeoutMs` passed or the call was cancelled first. */
async function pageAnswer(ctx: ToolContext, callPages: CallPages, question: Question, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await callPages.pages.take(callPages.call, question);
    if (answer !== undefined) return answer;
    if (ctx.mcpReq.signal.aborted || Date.now() + PAGE_POLL_MS > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, PAGE_POLL_MS));
  }
}

/** Pushes `question` (a form question) as a URL question to its page and returns the page's answer, read as in-band. */
export async function pushPageQuestion(
  ctx: ToolContext,
  question: Question,
  callPages: CallPages,
  timeoutMs: number,
): Promise<ElicitationResult<unknown>> {
  const attempts = attemptsOf(question.ask);
  for (let attempt = 1; ; attempt++) {
    const url = await callPages.pages.open(callPages.call, question, ctx.http?.req?.url);
    const elicitationId = newElicitationSeed();
    const ask = elicitUrl(formMessageOf(question), url, { elicitationId });
    const consent = await pushQuestion(
      ctx,
      { ...question, ask, rendered: renderQuestion(ask, question.label) },
      timeoutMs,
    );
    if (consent.action !== 'accept') return consent;
    const answer = await pageAnswer(ctx, callPages, question, timeoutMs);
    if (answer === undefined) {
      throw new ToolError(
        `Resolver '${question.label}': the person did not answer on the page within ${timeoutMs} ms.`,
      );
    }
    await ctx[elicitationCompleter]?.(elicitationId)().catch(() => undefined);
    try {
      return await readAnswerTo(question, answer);
    } catch (error) {
      if (!(error instanceof RejectedAnswer) || attempt >= attempts) throw error;
    }
  }
}
