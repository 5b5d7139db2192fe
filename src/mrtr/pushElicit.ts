/**
 * Asking on a legacy (2025-11-25) session from a hand-written body: one real
 * server-to-client request related to the call, through the questions layer's legacy strategy, so
 * it is gated, pushed and validated exactly like a resolver's question.
 */
import type { StandardSchemaV1, StandardSchemaWithJSON } from '@modelcontextprotocol/server';

import { roundServicesOf, type ToolContext } from '../context.js';
import { McpResolveError } from '../errors.js';
import type { ElicitationResult, FlatForm } from '../questions/markers.js';
import { formQuestion } from '../questions/markers.js';
import { DEFAULT_LEGACY_QUESTION_TIMEOUT_MS, pushQuestion } from '../questions/push.js';
import { renderQuestion } from '../questions/render.js';
import { inBandChannel } from '../channels/inBand.js';

/** How long a pushed question waits for the human by default, in ms (the library's 10 minutes). */
export const DEFAULT_PUSH_TIMEOUT_MS = DEFAULT_LEGACY_QUESTION_TIMEOUT_MS;

const PUSH_ELICIT_API = 'pushElicit()';

/** Asks the human `message` by a real push on a legacy session; the outcome is accepted (validated against `schema`), declined or cancelled. */
export async function pushElicit<TSchema extends StandardSchemaWithJSON>(
  ctx: ToolContext,
  message: string,
  schema: TSchema & FlatForm<StandardSchemaV1.InferOutput<TSchema>>,
  options: {
    /** How long the question may wait for the human, in ms; progress notifications reset it. @default 600000 */
    readonly timeoutMs?: number;
  } = {},
): Promise<ElicitationResult<StandardSchemaV1.InferOutput<TSchema>>> {
  if (ctx.era !== 'legacy') {
    throw new McpResolveError(
      'invalid_usage',
      `${PUSH_ELICIT_API}: push requests exist only on legacy (2025-11-25) sessions (got a modern request). ` +
        'On modern requests return input_required instead.',
      { data: { api: PUSH_ELICIT_API } },
    );
  }
  const ask = formQuestion<StandardSchemaV1.InferOutput<TSchema>>(message, schema);
  const question = {
    key: PUSH_ELICIT_API,
    label: PUSH_ELICIT_API,
    ask,
    rendered: renderQuestion(ask, PUSH_ELICIT_API),
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_PUSH_TIMEOUT_MS;
  // The services of the round whose body calls this: the user's code holds the context only.
  const round = roundServicesOf(ctx);
  inBandChannel({ ctx }).admit(question);
  return pushQuestion(ctx, round, question, timeoutMs);
}
