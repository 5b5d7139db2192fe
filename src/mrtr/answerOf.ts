/** Reading the answer a modern retry carries for one question key, in a hand-written body. */
import type { StandardSchemaV1 } from '@modelcontextprotocol/server';
import { acceptedContent, inputResponse } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { ToolError } from '../errors.js';
import type { ElicitationResult } from '../questions/markers.js';

/**
 * The outcome of the elicitation answered under `key` in this round's `inputResponses`, validated
 * against `schema` (synchronous schemas only); `undefined` when this round carries no answer for it.
 */
export function answerOf<TSchema extends StandardSchemaV1>(
  ctx: ToolContext,
  key: string,
  schema: TSchema,
): ElicitationResult<StandardSchemaV1.InferOutput<TSchema>> | undefined {
  const responses = ctx.mcpReq.inputResponses;
  const view = inputResponse(responses, key);
  switch (view.kind) {
    case 'missing':
      return undefined;
    case 'sampling':
    case 'roots':
      throw new ToolError(`answerOf(): the answer under '${key}' is a non-elicitation response (wrong kind).`);
    case 'elicit': {
      if (view.action !== 'accept') return { action: view.action };
      if (view.content === undefined)
        throw new ToolError(`answerOf(): the answer under '${key}' was accepted with no content.`);
      const value = acceptedContent(responses, key, schema);
      if (value === undefined) {
        throw new ToolError(`answerOf(): the answer under '${key}' does not match the requested schema.`);
      }
      return { action: 'accept', value };
    }
  }
}
