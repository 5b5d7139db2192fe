/**
 * The legacy push: on a 2025-11-25 connection a question is a real server-to-client request,
 * related to the originating call, answered before the call goes on. The one place the library
 * sends one (the resolver engine, `journaled` and `pushElicit` all come through here).
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { ToolContext } from '../context.js';
import { ToolError } from '../errors.js';
import type { ElicitationResult } from './markers.js';
import { readAnswerTo } from './read.js';
import type { Question } from './render.js';

/** How long a pushed question waits for the human by default, in ms (10 minutes). */
export const DEFAULT_LEGACY_QUESTION_TIMEOUT_MS = 600_000;

/** Accepts any result: the answer is checked by `readAnswerTo`, which says what was wrong in our words. */
const ANY_RESULT = z.unknown();

/** Pushes `question` on the legacy connection of `ctx` and reads the answer; progress notifications reset the timeout. */
export async function pushQuestion(
  ctx: ToolContext,
  question: Question,
  timeoutMs: number,
): Promise<ElicitationResult<unknown>> {
  const { request } = question.rendered;
  let response: unknown;
  try {
    // The call's signal: when the call is cancelled (its client left), the push stops waiting at once.
    const options = { timeout: timeoutMs, resetTimeoutOnProgress: true, signal: ctx.mcpReq.signal };
    response = await ctx.mcpReq.send(request, ANY_RESULT, options);
  } catch (error) {
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
  return readAnswerTo(question, response);
}
