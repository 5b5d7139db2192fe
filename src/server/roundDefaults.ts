/** What every instance's rounds share, resolved once from the server's options and checked at construction. */
import type { Implementation, ServerContext } from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import { MILLISECONDS, positiveInteger } from '../optionChecks.js';
import { createKeyedTurns, createMemoryAttemptStore, DEFAULT_ATTEMPTS_WINDOW_MS } from '../state/attemptStore.js';
import { DEFAULT_MAX_ANSWER_BYTES } from '../questions/bounds.js';
import { DEFAULT_LEGACY_QUESTION_TIMEOUT_MS } from '../questions/push.js';
import { createErrorMasker, sealingSink } from '../round/masking.js';
import type { InstanceServices } from '../round/services.js';
import { DEFAULT_MAX_TOOL_INPUT_ELEMENTS } from '../round/toolCall.js';
import { principalFrom } from '../state/binding.js';
import type { InternalSealingOptions } from '../state/options.js';
import { createSealer } from '../state/sealer.js';
import type { McpResolveServerOptions } from './options.js';

/** The instance services every instance shares; only the SDK server and its connection differ. */
export type RoundDefaults = Omit<InstanceServices, 'server' | 'clientIdOf' | 'completeElicitation' | 'inbound'>;

const SERVER_API = 'new McpResolveServer()';

/**
 * The shared services of a server named `info.name` with `options`, asking through `channels`;
 * throws `invalid_options` naming a bad option.
 */
export function roundDefaultsOf(
  info: Implementation,
  options: McpResolveServerOptions,
  channels: InstanceServices['channels'],
): RoundDefaults {
  const timeout = options.legacyQuestionTimeoutMs;
  if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
    throw new McpResolveError(
      'invalid_options',
      `legacyQuestionTimeoutMs must be a positive number of milliseconds (got ${String(timeout)}).`,
      { data: { api: SERVER_API, option: 'legacyQuestionTimeoutMs' } },
    );
  }
  return {
    channels,
    sealer: createSealer(info.name, sealingOf(options)),
    principal: principalOption(options),
    legacyQuestionTimeoutMs: timeout ?? DEFAULT_LEGACY_QUESTION_TIMEOUT_MS,
    maxAnswerBytes: positiveInteger(SERVER_API, 'maxAnswerBytes', options.maxAnswerBytes, DEFAULT_MAX_ANSWER_BYTES, {
      unit: 'number of bytes',
    }),
    attempts: {
      store: options.answerAttempts?.store ?? createMemoryAttemptStore(),
      turns: createKeyedTurns(),
      windowMs: positiveInteger(
        SERVER_API,
        'answerAttempts.windowMs',
        options.answerAttempts?.windowMs,
        DEFAULT_ATTEMPTS_WINDOW_MS,
        {
          unit: MILLISECONDS,
        },
      ),
    },
    maxToolInputElements: elementBound(options.maxToolInputElements),
    maskError: createErrorMasker(options),
    telemetry: options.telemetry,
  };
}

/** The server's `requestState` option with its `onerror`, where sealing reports too (an option that is not an object stays as given, for its error). */
function sealingOf(options: McpResolveServerOptions): InternalSealingOptions | undefined {
  const { requestState, onerror } = options;
  if (onerror === undefined) return requestState;
  const sink = sealingSink(onerror);
  if (requestState === undefined) return { sink };
  return typeof requestState === 'object' && !Array.isArray(requestState) ? { ...requestState, sink } : requestState;
}

/** The principal a request acts for, as the server's `principal` option reads it (default: from the validated auth info). */
export function principalOption(options: McpResolveServerOptions): (ctx: ServerContext) => string | undefined {
  return options.principal ?? ((ctx) => principalFrom(ctx.http?.authInfo));
}

/** The `maxToolInputElements` option as the rounds use it: `undefined` for `Infinity` (no bound). */
function elementBound(value: number | undefined): number | undefined {
  if (value === Number.POSITIVE_INFINITY) return undefined;
  return positiveInteger(SERVER_API, 'maxToolInputElements', value, DEFAULT_MAX_TOOL_INPUT_ELEMENTS, {
    unit: 'number of elements, or Infinity',
  });
}
