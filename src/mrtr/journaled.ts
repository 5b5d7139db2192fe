/**
 * A linear handler replayed from a sealed journal. Every round runs the handler from the
 * top; `ctx.step` returns the recorded result instead of running again, and `ctx.elicit` returns
 * the recorded answer to the same question (pinned by digest) or leaves the handler waiting on a
 * promise that never settles. The round then ends with one `input_required` carrying every
 * question pending by then and the journal as `requestState`, which the library seals. Suspension
 * is not an exception, so the handler's own `try`/`catch` cannot swallow it. On legacy sessions
 * the handler runs once, in process: steps run, and each round's questions are real pushes. Run as
 * a task's body, each completed step is also recorded in the task before the handler goes on, so
 * a body resumed on another instance (its process died) gets it back instead of running it again.
 */
import { isInputRequiredResult } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { McpResolveError } from '../errors.js';
import { DEFAULT_LEGACY_QUESTION_TIMEOUT_MS } from '../questions/push.js';
import type { WrappedBody } from './body.js';
import { journalSize } from './json.js';
import { runJournaled, type JournaledHandler } from './journaledRun.js';
import { positiveInteger } from '../optionChecks.js';

/** The default bound on a journal's size, in bytes of its JSON text (64 KiB). */
export const DEFAULT_MAX_JOURNAL_BYTES = 65_536;

/** What {@link JournaledOptions.onSuspend} learns about a round that ended with `input_required`. */
export interface SuspendInfo {
  /** The journal's size in bytes (UTF-8 JSON, before sealing). */
  readonly journalBytes: number;
  /** How many questions the round asks. */
  readonly questions: number;
}

/** Options of {@link journaled}. */
export interface JournaledOptions {
  /** The largest journal a round may carry, in bytes; past it the call fails with a clear error. @default 65536 */
  readonly maxJournalBytes?: number;
  /** How long a legacy push question waits for the human, in ms. @default 600000 */
  readonly legacyQuestionTimeoutMs?: number;
  /** Called when a round suspends, with the journal's measured size (for metrics). */
  readonly onSuspend?: (info: SuspendInfo) => void;
}

/** Turns a linear handler into a tool body; its rounds replay the handler from a sealed journal. */
export function journaled<TArgs>(handler: JournaledHandler<TArgs>, options: JournaledOptions = {}): WrappedBody<TArgs> {
  if (typeof handler !== 'function') {
    throw new McpResolveError('invalid_usage', `journaled(): the handler must be a function (got ${typeof handler}).`, {
      data: { api: 'journaled()' },
    });
  }
  const maxBytes = positiveInteger(
    'journaled()',
    'maxJournalBytes',
    options.maxJournalBytes,
    DEFAULT_MAX_JOURNAL_BYTES,
  );
  const timeoutMs = positiveInteger(
    'journaled()',
    'legacyQuestionTimeoutMs',
    options.legacyQuestionTimeoutMs,
    DEFAULT_LEGACY_QUESTION_TIMEOUT_MS,
  );
  return async (args: TArgs, ctx: ToolContext) => {
    const result = await runJournaled(handler, args, ctx, timeoutMs, maxBytes);
    if (!isInputRequiredResult(result)) return result;
    const bytes = journalSize(result.requestState ?? '', maxBytes);
    options.onSuspend?.({ journalBytes: bytes, questions: Object.keys(result.inputRequests ?? {}).length });
    return result;
  };
}
