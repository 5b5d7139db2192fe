/**
 * Asking on a legacy (2025-11-25) session: one real server-to-client request related to the call,
 * answered before the body goes on, validated like every answer (options C, D and J's legacy arm).
 */
import type { StandardSchemaV1, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { McpResolveError, ToolError } from '../errors.js';
import { readAnswer } from '../resolvers/answers.js';
import type { Ask, ElicitationResult } from '../resolvers/markers.js';
import { elicit } from '../resolvers/markers.js';
import type { RenderedQuestion } from '../resolvers/questions.js';
import { renderQuestion } from '../resolvers/questions.js';

/** How long a pushed question waits for the human by default, in ms (the library's 10 minutes). */
export const DEFAULT_PUSH_TIMEOUT_MS = 600_000;

/** Options of the push primitives. */
export interface PushOptions {
  /** How long the question may wait for the human, in ms; progress notifications reset it. */
  readonly timeoutMs?: number;
}

async function send(ctx: ToolContext, question: RenderedQuestion, timeoutMs: number): Promise<unknown> {
  const options = { timeout: timeoutMs, resetTimeoutOnProgress: true };
  const { send: sendRequest } = ctx.mcpReq;
  try {
    switch (question.request.method) {
      case 'elicitation/create':
        return await sendRequest({ method: 'elicitation/create', params: question.request.params }, options);
      case 'sampling/createMessage':
        return await sendRequest({ method: 'sampling/createMessage', params: question.request.params }, options);
      case 'roots/list':
        return await sendRequest({ method: 'roots/list' }, options);
    }
  } catch (error) {
    if (error instanceof ProtocolError) {
      throw new ToolError(`The client failed the ${question.request.method} request: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

/** Sends `ask` as a push request on the legacy session of `ctx` and reads the answer (`label` names the asker in errors). */
export async function pushAsk(
  ctx: ToolContext,
  ask: Ask,
  label: string,
  options: PushOptions = {},
): Promise<ElicitationResult<unknown>> {
  if (ctx.era !== 'legacy') {
    throw new McpResolveError(
      'invalid_usage',
      `${label}: push requests exist only on legacy (2025-11-25) sessions (got a modern request). ` +
        'On modern requests return input_required instead.',
    );
  }
  const question = renderQuestion(ask, label);
  if (ctx.http !== undefined && ctx.sessionId === undefined) {
    // A legacy request over HTTP without a session is the SDK's per-request legacy leg: a push would
    // never arrive, and waiting for its answer would hang the call. (A tool body cannot see the
    // connection's declared capabilities, which is how the resolver engine tells this case apart.)
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `${label} needs to ask the client, but this legacy (2025-11-25) HTTP request has no session, so no channel ` +
        'for server-to-client requests. Serve legacy HTTP through a sessionful transport (serveHttp does).',
    );
  }
  const response = await send(ctx, question, options.timeoutMs ?? DEFAULT_PUSH_TIMEOUT_MS);
  return readAnswer(ask, question.kind, label, response);
}

/** Asks the human `message` by a real push on a legacy session; the outcome is accepted (validated against `schema`), declined or cancelled. */
export async function pushElicit<TSchema extends StandardSchemaWithJSON>(
  ctx: ToolContext,
  message: string,
  schema: TSchema,
  options?: PushOptions,
): Promise<ElicitationResult<StandardSchemaV1.InferOutput<TSchema>>> {
  return pushAsk(ctx, elicit(message, schema), 'pushElicit()', options);
}
