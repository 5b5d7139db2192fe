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
import type {
  CreateMessageRequestParams,
  InputRequiredResult,
  Root,
  StandardSchemaV1,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { AsyncLocalStorage } from 'node:async_hooks';

import { isInputRequiredResult } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { McpResolveError } from '../errors.js';
import { pinOf, occurrenceKeys } from '../questions/ledger.js';
import { QUESTION_KINDS } from '../questions/kinds.js';
import type { Ask, ElicitationResult, FlatForm, SampleResult } from '../questions/markers.js';
import { askKind, formQuestion, listRoots as rootsMarker, sample as sampleMarker } from '../questions/markers.js';
import { DEFAULT_LEGACY_QUESTION_TIMEOUT_MS } from '../questions/push.js';
import { renderQuestion, type Question } from '../questions/render.js';
import { callChannelsOf } from '../channels/channel.js';
import { runPasses } from '../round/passes.js';
import { strategyFor } from '../round/strategies.js';
import type { HandlerResult, WrappedBody } from './body.js';
import { never, RoundGate } from './gate.js';
import { asRecorded, journalOf, journalSize, recordDurably } from './json.js';
import { positiveInteger } from '../optionChecks.js';

/** The default bound on a journal's size, in bytes of its JSON text (64 KiB). */
export const DEFAULT_MAX_JOURNAL_BYTES = 65_536;

/** What a journaled handler receives: the tool context plus the four journaled operations. */
export interface JournaledContext extends ToolContext {
  /**
   * Runs `fn` once per call and records its result (a JSON value); every later round of the call
   * gets the recorded result back without running `fn`. Steps are keyed by name and occurrence.
   */
  step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
  /** Asks the human `message`; the outcome is accepted (validated against `schema`), declined or cancelled. */
  elicit<TSchema extends StandardSchemaWithJSON>(
    message: string,
    schema: TSchema & FlatForm<StandardSchemaV1.InferOutput<TSchema>>,
  ): Promise<ElicitationResult<StandardSchemaV1.InferOutput<TSchema>>>;
  /**
   * Asks the client's LLM; the result is recorded, so the model is paid once per call. @deprecated SEP-2577 deprecates sampling as of protocol version 2026-07-28 (it still works): call your own LLM provider's API inside `ctx.step()` instead.
   */
  sample(params: CreateMessageRequestParams): Promise<SampleResult>;
  /**
   * Asks the client for its roots. @deprecated SEP-2577 deprecates roots as of protocol version 2026-07-28 (it still works): take the paths as tool arguments or from the server's configuration.
   */
  listRoots(): Promise<Root[]>;
}

/** A journaled handler: linear code over a {@link JournaledContext}, returning text or a tool result. */
export type JournaledHandler<TArgs> = (args: TArgs, ctx: JournaledContext) => HandlerResult | Promise<HandlerResult>;

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

/** The one cast seam of this module: a value this module recorded or validated has the type its step or question promises. */
function trusted<T>(value: unknown): T {
  return value as T;
}

function acceptedValue<T>(outcome: ElicitationResult<unknown>, api: string): T {
  const result = trusted<ElicitationResult<T>>(outcome);
  // Sampling and roots answers have no decline arm: readAnswer only ever accepts them.
  if (result.action !== 'accept')
    throw new McpResolveError('invalid_usage', `${api} was answered with ${result.action}.`, { data: { api } });
  return result.value;
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

/** The step a piece of code runs inside, if any: a step that asks would wait on itself. */
const insideStep = new AsyncLocalStorage<string>();

/**
 * One call of a journaled handler on either era. The handler runs from the top; steps and answers
 * come from the journal; a question without an answer leaves the handler waiting, and the era's
 * strategy ends the round (modern: `input_required` with the journal; legacy: pushes, then the
 * same run goes on).
 */
async function runJournaled<TArgs>(
  handler: JournaledHandler<TArgs>,
  args: TArgs,
  ctx: ToolContext,
  timeoutMs: number,
  maxBytes: number,
): Promise<HandlerResult | InputRequiredResult> {
  const journal = journalOf(ctx);
  const strategy = strategyFor(ctx, { ledger: journal, legacyTimeoutMs: timeoutMs, channels: callChannelsOf(ctx) });
  const gate = new RoundGate();
  const stepKey = occurrenceKeys();
  const questionKey = occurrenceKeys();
  const waiting = new Map<string, (outcome: Promise<ElicitationResult<unknown>>) => void>();

  const step = <T>(name: string, fn: () => T | Promise<T>): Promise<T> => {
    if (gate.isClosed) return never();
    const key = stepKey(name);
    const recorded = journal.step(key);
    if (recorded !== undefined) return Promise.resolve(trusted<T>(recorded[0]));
    return gate.track(async () => {
      const value = await insideStep.run(name, fn);
      let kept: T;
      try {
        kept = asRecorded(value, `ctx.step('${name}')`, 'ctx.step()');
        journal.recordStep(key, kept);
        await recordDurably(ctx, journal, key, maxBytes);
      } catch (error) {
        // Unrecordable (no JSON form; in a task: too large, or the run lost the task): the call stops here.
        gate.fail(error);
        return never<T>();
      }
      return kept;
    });
  };

  const ask = async (marker: Ask): Promise<ElicitationResult<unknown>> => {
    if (gate.isClosed) return never();
    const label = QUESTION_KINDS[askKind(marker)].journaledCall;
    const enclosing = insideStep.getStore();
    if (enclosing !== undefined) {
      gate.fail(
        new McpResolveError(
          'invalid_usage',
          `${label} inside ctx.step('${enclosing}'): a step must not ask (it would wait on its own round). Ask before or after the step.`,
          { data: { api: label } },
        ),
      );
      return never();
    }
    let question: Question;
    try {
      const rendered = renderQuestion(marker, label);
      question = { key: questionKey(pinOf(rendered)), label, ask: marker, rendered };
    } catch (error) {
      gate.fail(error); // a schema the wire cannot carry is a programming error, not something to catch
      return never();
    }
    const known = await strategy.recall(question, false);
    if (known !== undefined) return known;
    try {
      strategy.admit(question);
    } catch (error) {
      gate.fail(error); // a client that cannot be asked: a protocol error, not for the handler to catch
      return never();
    }
    // Settled with the answer (or the reason there is none) when the strategy has it: legacy only.
    return new Promise<ElicitationResult<unknown>>((resolve) => {
      waiting.set(question.key, resolve);
      gate.ask(question);
    });
  };

  const journaledCtx: JournaledContext = {
    ...ctx,
    step,
    elicit: async (message, schema) => trusted(await ask(formQuestion(message, schema))),
    sample: async (params) => acceptedValue<SampleResult>(await ask(sampleMarker(params)), 'ctx.sample()'),
    listRoots: async () => acceptedValue<Root[]>(await ask(rootsMarker()), 'ctx.listRoots()'),
  };

  const running = (async () => handler(args, journaledCtx))();
  try {
    return await runPasses(strategy, {
      async run() {
        const outcome = await gate.settle(running);
        switch (outcome.kind) {
          case 'fatal':
          case 'error':
            throw outcome.error;
          case 'done':
            if (isInputRequiredResult(outcome.value)) {
              throw new McpResolveError(
                'invalid_usage',
                'journaled(): the handler returned input_required itself; ask with ctx.elicit(), ctx.sample() or ctx.listRoots().',
                { data: { api: 'journaled()' } },
              );
            }
            return { kind: 'done', value: outcome.value };
          case 'suspended':
            return { kind: 'waiting', questions: outcome.questions };
        }
      },
      async settle(question, outcome) {
        gate.answered(question.key);
        waiting.get(question.key)?.(outcome);
        waiting.delete(question.key);
      },
    });
  } finally {
    gate.close();
  }
}
