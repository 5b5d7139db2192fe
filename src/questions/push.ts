/**
 * The legacy push: on a 2025-11-25 connection a question is a real server-to-client request,
 * related to the originating call, answered before the call goes on. The one place the library
 * sends one (the resolver engine, `journaled` and `pushElicit` all come through here).
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { RoundServices, ToolContext } from '../context.js';
import { assertAnswerSize, DEFAULT_MAX_ANSWER_BYTES } from './bounds.js';
import { questionKind } from './questionKind.js';
import { ToolError } from '../errors.js';
import { askKind, type ElicitationResult } from './markers.js';
import { askUntilRead } from './attempts.js';
import type { Question } from './render.js';

/** The `data.reason` of the JSON-RPC error the hosting fails a push with when its answer may have been lost in a fleet relay. */
export const ANSWER_UNREACHABLE = 'mcp-resolve/answer-unreachable';

/** How long a pushed question waits for the human by default, in ms (10 minutes). */
export const DEFAULT_LEGACY_QUESTION_TIMEOUT_MS = 600_000;

/** Accepts any result: the answer is checked by `readAnswerTo`, which says what was wrong in our words. */
const ANY_RESULT = z.unknown();

/**
 * Pushes `question` on the legacy connection of `ctx` and reads the answer; progress notifications
 * reset the timeout. A rejected answer is pushed again with its reason (see `ElicitOptions`).
 */
export async function pushQuestion(
  ctx: ToolContext,
  round: RoundServices,
  question: Question,
  timeoutMs: number,
): Promise<ElicitationResult<unknown>> {
  announceUrlQuestion(round, question);
  const { trace, maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES } = round;
  return askUntilRead(round, question, async (request, attempt) => {
    let response: unknown;
    const pushed = trace?.pushed(question.key, questionKind(question.ask), attempt);
    try {
      // The call's signal: when the call is cancelled (its client left), the push stops waiting at once.
      const options = { timeout: timeoutMs, resetTimeoutOnProgress: true, signal: ctx.mcpReq.signal };
      response = await ctx.mcpReq.send(request, ANY_RESULT, options);
      pushed?.(actionOf(response));
    } catch (error) {
      pushed?.(undefined, error);
      if (error instanceof ProtocolError && isUnreachableAnswer(error)) {
        throw new ToolError(`The answer to the ${request.method} request cannot reach this server. ${error.message}`, {
          cause: error,
        });
      }
      if (error instanceof ProtocolError) {
        throw new ToolError(`The client failed the ${request.method} request: ${error.message}`, { cause: error });
      }
      // A cancelled call (its client left) rejects the push too: that is the cancel, not a timeout.
      if (ctx.mcpReq.signal.aborted) throw error;
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
        throw new ToolError(
          `The client did not answer the ${request.method} request: it timed out after ${timeoutMs} ms.`,
          { cause: error },
        );
      }
      throw error;
    }
    // Measured before anything reads it: the client's answer is untrusted input.
    assertAnswerSize(`Resolver '${question.label}'`, response, maxAnswerBytes);
    return { answer: response };
  });
}

/** Whether the hosting failed a push because the fleet relay may have lost its answer. */
function isUnreachableAnswer(error: ProtocolError): boolean {
  const { data } = error;
  return typeof data === 'object' && data !== null && 'reason' in data && data.reason === ANSWER_UNREACHABLE;
}

/** The `action` a pushed question's raw answer names, for the observer (`undefined` when it names none). */
function actionOf(response: unknown): string | undefined {
  if (typeof response !== 'object' || response === null) return undefined;
  const { action } = response as { action?: unknown };
  return typeof action === 'string' ? action : 'accept';
}

/** Hands a URL question's `onAsked` hook the completion sender of the connection it is pushed on. */
function announceUrlQuestion(round: RoundServices, question: Question): void {
  const { ask } = question;
  const completerOf = round.completeElicitation;
  if (askKind(ask) !== 'elicitUrl' || !('onAsked' in ask) || ask.onAsked === undefined || !completerOf) return;
  ask.onAsked(completerOf(ask.elicitationId ?? ''));
}
