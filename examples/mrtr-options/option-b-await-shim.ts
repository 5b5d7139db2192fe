/**
 * Option B — `await elicit()` made of exceptions. The handler reads like the SSE era, but on a
 * modern request an unanswered `elicit()` throws, the shim below turns the throw into
 * `input_required`, and the retry runs the handler from the top: the `await` looks like a
 * suspension point and is a re-entry point, so the audit above it runs twice. On legacy sessions
 * `elicit()` is a real push and the handler runs once. Zero migration, silently unsafe for
 * anything non-idempotent above the await: not a ship target.
 */
import type { InputRequiredResult, StandardSchemaV1, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { inputRequired } from '@modelcontextprotocol/server';

import type { ElicitationResult, FlatForm, ToolContext } from 'mcp-resolve';
import type { WrappedBody } from 'mcp-resolve/mrtr';
import { answerOf, pushElicit } from 'mcp-resolve/mrtr';

import type { DeckServer } from './weather.js';
import { audit, deckServer, DEFAULT_UNITS, UNITS_QUESTION, UnitsForm, weather, WEATHER_INPUT } from './weather.js';

type Elicit = <TSchema extends StandardSchemaWithJSON>(
  message: string,
  schema: TSchema & FlatForm<StandardSchemaV1.InferOutput<TSchema>>,
) => Promise<ElicitationResult<StandardSchemaV1.InferOutput<TSchema>>>;

/** Thrown by an unanswered `elicit()`; a handler's own catch-all would swallow it too. */
class NeedsInput extends Error {
  constructor(readonly inputRequests: Record<string, ReturnType<typeof inputRequired.elicit>>) {
    super('input required');
  }
}

/** The unsafe shim: exception → `input_required`; answers are read back by call order on the retry. */
function awaitShim<TArgs>(
  handler: (args: TArgs, ctx: ToolContext & { elicit: Elicit }) => Promise<string>,
): WrappedBody<TArgs> {
  return async (args: TArgs, ctx: ToolContext): Promise<string | InputRequiredResult> => {
    let asked = 0;
    const elicit: Elicit = async (message, schema) => {
      if (ctx.era === 'legacy') return pushElicit(ctx, message, schema);
      const key = `q${asked++}`;
      const answer = answerOf(ctx, key, schema);
      if (answer !== undefined) return answer;
      throw new NeedsInput({ [key]: inputRequired.elicit({ message, requestedSchema: schema }) });
    };
    try {
      return await handler(args, { ...ctx, elicit });
    } catch (error) {
      if (error instanceof NeedsInput) return inputRequired({ inputRequests: error.inputRequests });
      throw error;
    }
  };
}

export const weatherServer: DeckServer = (options) =>
  deckServer('b', options).tool(
    'weather',
    { input: WEATHER_INPUT },
    awaitShim(async ({ location }, ctx) => {
      audit(location); // ✗ looks like it runs once; on modern it runs again on the retry
      const answer = await ctx.elicit(UNITS_QUESTION, UnitsForm);
      return weather(location, answer.action === 'accept' ? answer.value.units : DEFAULT_UNITS);
    }),
  );

export const createServer = weatherServer().createServer;
