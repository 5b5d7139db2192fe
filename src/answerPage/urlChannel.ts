/**
 * The page by URL: the channel of a form question on a client that declares URL elicitation but
 * shows no forms. A URL question to the page goes on the wire under the form question's key; an
 * accepted URL question stands for the page's answer (none yet: the question is asked again, with
 * the same page). On 2025-11-25 the URL question is pushed and the call waits in process for the
 * page's answer, then reports the elicitation complete. The page is bound to the call's secret
 * (sealed in its `requestState`, its task id, or held in process), so no other call finds it.
 */
import type { ClientCapabilities, InputRequest } from '@modelcontextprotocol/server';

import type { AskingCall, ChannelProvider, InBandChannel } from '../channels/channel.js';
import type { ToolContext } from '../context.js';
import { ToolError } from '../errors.js';
import { assertBackChannel } from '../questions/capabilities.js';
import type { ElicitationResult } from '../questions/markers.js';
import { elicitUrl } from '../questions/markers.js';
import { pushQuestion } from '../questions/push.js';
import { askUntilRead } from '../questions/attempts.js';
import { shownWith } from '../questions/reask.js';
import type { Question } from '../questions/render.js';
import { renderQuestion } from '../questions/render.js';
import { checkedUrl, newElicitationSeed } from '../questions/urlQuestion.js';
import type { PageLinks } from './links.js';
import { formMessageOf, pageBindingOf } from '../pageStore/pages.js';
import type { AnswerPageBinding } from '../pageStore/store.js';

/** How often a waiting 2025-11-25 call looks for the page's answer, in ms. */
export const PAGE_POLL_MS = 500;

/** The URL question that sends the person to the page of form question `question`. */
export function pageUrlRequest(question: Question, url: string, elicitationId: string): InputRequest {
  return {
    method: 'elicitation/create',
    params: { mode: 'url', message: formMessageOf(question), url: checkedUrl(url), elicitationId },
  };
}

/** Whether a URL answer from the client lets the page's answer be read (the person agreed to go there). */
export function acceptedUrlAnswer(response: unknown): boolean {
  return typeof response === 'object' && response !== null && (response as { action?: unknown }).action === 'accept';
}

/** The page's answer, once given, or `undefined` when `timeoutMs` passed or the call was cancelled first. */
async function awaitedAnswer(ctx: ToolContext, pages: PageLinks, binding: AnswerPageBinding, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await pages.take(binding);
    if (answer !== undefined) return answer;
    if (ctx.mcpReq.signal.aborted || Date.now() + PAGE_POLL_MS > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, PAGE_POLL_MS));
  }
}

/** 2025-11-25: pushes a URL question to the page of `question`, waits for the page's answer and reads it as in-band. */
async function pushToPage(
  call: AskingCall,
  pages: PageLinks,
  binding: AnswerPageBinding,
  question: Question,
  timeoutMs: number,
): Promise<ElicitationResult<unknown>> {
  const { ctx } = call;
  return askUntilRead(call.round, question, async (request) => {
    // The question as the page shows it: asked again with the reason after a refused answer.
    const shown = shownWith(question, request);
    const url = await pages.open(binding, shown, ctx.http?.req);
    const elicitationId = newElicitationSeed();
    const ask = elicitUrl(formMessageOf(shown), url, { elicitationId });
    const consent = await pushQuestion(
      ctx,
      call.round,
      { ...question, ask, rendered: renderQuestion(ask, question.label) },
      timeoutMs,
    );
    if (consent.action !== 'accept') return { ended: consent };
    const answer = await awaitedAnswer(ctx, pages, binding, timeoutMs);
    if (answer === undefined) {
      throw new ToolError(
        `Resolver '${question.label}': the person did not answer on the page within ${timeoutMs} ms.`,
      );
    }
    await call.round
      .completeElicitation?.(elicitationId)()
      .catch(() => undefined);
    return { answer };
  });
}

/** The page by URL over `pages`. */
export function pageUrlChannel(pages: PageLinks): ChannelProvider {
  return {
    serves: (declared: ClientCapabilities | undefined) => declared?.elicitation?.url !== undefined,
    open(call): InBandChannel {
      const bindingOf = (question: Question) => pageBindingOf(call.caller(), call.secret(), question);
      return {
        way: 'in-band',
        admit(question) {
          if (call.ctx.era === 'legacy') assertBackChannel(call.ctx.clientCapabilities, question.label);
        },
        // 2026-07-28 carries no elicitation id. `request` is the question asked again when its answer was refused.
        request: async (question, request) => {
          const shown = shownWith(question, request);
          return pageUrlRequest(shown, await pages.open(bindingOf(question), shown, call.ctx.http?.req), '');
        },
        answer: async (question, response) =>
          acceptedUrlAnswer(response) ? pages.take(bindingOf(question)) : response,
        push: (question, timeoutMs) => pushToPage(call, pages, bindingOf(question), question, timeoutMs),
      };
    },
  };
}
