/**
 * Option J: a linear handler replayed from a sealed journal. Every round runs the handler from the
 * top; `ctx.step` returns the recorded result instead of running again, and `ctx.elicit` returns
 * the recorded answer to the same question (pinned by digest) or leaves the handler waiting on a
 * promise that never settles. The round then ends with one `input_required` carrying every
 * question pending by then and the journal as `requestState`, which the library seals. Suspension
 * is not an exception, so the handler's own `try`/`catch` cannot swallow it. On legacy sessions
 * the handler runs once: steps run, questions are real pushes.
 */
import type {
  CreateMessageRequestParams,
  InputRequiredResult,
  Root,
  StandardSchemaV1,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { AsyncLocalStorage } from 'node:async_hooks';

import { inputRequired, isInputRequiredResult, ProtocolError } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { McpResolveError } from '../errors.js';
import { readAnswer } from '../resolvers/answers.js';
import { assertCapability } from '../resolvers/capabilities.js';
import type { Ask, AskKind, ElicitationResult, SampleResult } from '../resolvers/markers.js';
import {
  askKind,
  elicit as elicitMarker,
  listRoots as rootsMarker,
  sample as sampleMarker,
} from '../resolvers/markers.js';
import type { RenderedQuestion } from '../resolvers/questions.js';
import { renderQuestion } from '../resolvers/questions.js';
import type { ToolInput } from '../server/tool.js';
import type { ArgsOf, HandlerResult, WrappedBody } from './body.js';
import { modernCapabilitiesOf } from './era.js';
import { never, RoundGate } from './gate.js';
import type { Journal } from './journal.js';
import { decodeJournal, DEFAULT_MAX_JOURNAL_BYTES, encodeJournal } from './journal.js';
import { asRecorded } from './json.js';
import { DEFAULT_PUSH_TIMEOUT_MS, pushAsk } from './push.js';

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
    schema: TSchema,
  ): Promise<ElicitationResult<StandardSchemaV1.InferOutput<TSchema>>>;
  /** Asks the client's LLM; the result is recorded, so the model is paid once per call. */
  sample(params: CreateMessageRequestParams): Promise<SampleResult>;
  /** Asks the client for its roots. */
  listRoots(): Promise<Root[]>;
}

/** A journaled handler: linear code over a {@link JournaledContext}, returning text or a tool result. */
export type JournaledHandler<TArgs> = (ctx: JournaledContext, args: TArgs) => HandlerResult | Promise<HandlerResult>;

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

function acceptedValue<T>(outcome: ElicitationResult<unknown>, what: string): T {
  const result = trusted<ElicitationResult<T>>(outcome);
  // Sampling and roots answers have no decline arm: readAnswer only ever accepts them.
  if (result.action !== 'accept')
    throw new McpResolveError('invalid_usage', `${what} was answered with ${result.action}.`);
  return result.value;
}

const LABELS: Record<AskKind, string> = { elicit: 'ctx.elicit()', sample: 'ctx.sample()', roots: 'ctx.listRoots()' };

function positiveInteger(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new McpResolveError(
      'invalid_options',
      `journaled(): options.${name} must be a positive integer (got ${String(value)}).`,
    );
  }
  return value;
}

/** Turns a linear handler into the body of a tool whose input is `input`; its rounds replay the handler from a sealed journal. */
export function journaled<TInput extends ToolInput>(
  _input: TInput,
  handler: JournaledHandler<ArgsOf<TInput>>,
  options: JournaledOptions = {},
): WrappedBody<TInput> {
  if (typeof handler !== 'function') {
    throw new McpResolveError('invalid_usage', `journaled(): the handler must be a function (got ${typeof handler}).`);
  }
  const maxBytes = positiveInteger(options.maxJournalBytes, 'maxJournalBytes', DEFAULT_MAX_JOURNAL_BYTES);
  const timeoutMs = positiveInteger(
    options.legacyQuestionTimeoutMs,
    'legacyQuestionTimeoutMs',
    DEFAULT_PUSH_TIMEOUT_MS,
  );
  return async (args: ArgsOf<TInput>, ctx: ToolContext) =>
    ctx.era === 'legacy'
      ? runOnce(handler, args, ctx, timeoutMs)
      : replay(handler, args, ctx, maxBytes, options.onSuspend);
}

/** Legacy: one run, steps run, questions are pushes on the live session. */
async function runOnce<TArgs>(
  handler: JournaledHandler<TArgs>,
  args: TArgs,
  ctx: ToolContext,
  timeoutMs: number,
): Promise<HandlerResult> {
  let fault: { readonly error: ProtocolError } | undefined;
  const ask = async (marker: Ask) => {
    try {
      return await pushAsk(ctx, marker, LABELS[askKind(marker)], { timeoutMs });
    } catch (error) {
      if (error instanceof ProtocolError) fault ??= { error }; // no channel: a catch-all must not turn it into a result
      throw error;
    }
  };
  const journaledCtx: JournaledContext = {
    ...ctx,
    step: async (name, fn) => asRecorded(await fn(), `ctx.step('${name}')`),
    elicit: async (message, schema) => trusted(await ask(elicitMarker(message, schema))),
    sample: async (params) => acceptedValue<SampleResult>(await ask(sampleMarker(params)), 'ctx.sample()'),
    listRoots: async () => acceptedValue<Root[]>(await ask(rootsMarker()), 'ctx.listRoots()'),
  };
  try {
    const result = await handler(journaledCtx, args);
    if (fault !== undefined) throw fault.error;
    return result;
  } catch (error) {
    throw fault?.error ?? error;
  }
}

/** The step a piece of code runs inside, if any: a step that asks would wait on itself. */
const insideStep = new AsyncLocalStorage<string>();

/** Keys by content or name plus occurrence: `key`, then `key.2`, `key.3`, … for repeats in one run. */
function occurrences(): (base: string) => string {
  const seen = new Map<string, number>();
  return (base) => {
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}.${count}`;
  };
}

/** Modern: one round of the replay. */
async function replay<TArgs>(
  handler: JournaledHandler<TArgs>,
  args: TArgs,
  ctx: ToolContext,
  maxBytes: number,
  onSuspend: JournaledOptions['onSuspend'],
): Promise<HandlerResult | InputRequiredResult> {
  const carried = decodeJournal(ctx.mcpReq.requestState());
  const responses = ctx.mcpReq.inputResponses;
  const capabilities = modernCapabilitiesOf(ctx);
  const gate = new RoundGate();
  const steps: Journal['s'] = { ...carried.s };
  const answers: Journal['a'] = {};
  const askedBefore = new Set(carried.p);
  const stepKey = occurrences();
  const questionKey = occurrences();

  const step = <T>(name: string, fn: () => T | Promise<T>): Promise<T> => {
    if (gate.isClosed) return never();
    const key = stepKey(name);
    const recorded = steps[key];
    if (recorded !== undefined) return Promise.resolve(trusted<T>(recorded[0]));
    return gate.track(async () => {
      const value = await insideStep.run(name, fn);
      let kept: T;
      try {
        kept = asRecorded(value, `ctx.step('${name}')`);
      } catch (error) {
        gate.fail(error); // unrecordable: the step would run again next round, so the call stops here
        return never<T>();
      }
      steps[key] = kept === undefined ? [] : [kept];
      return kept;
    });
  };

  const ask = async (marker: Ask): Promise<ElicitationResult<unknown>> => {
    if (gate.isClosed) return never();
    const label = LABELS[askKind(marker)];
    const enclosing = insideStep.getStore();
    if (enclosing !== undefined) {
      gate.fail(
        new McpResolveError(
          'invalid_usage',
          `${label} inside ctx.step('${enclosing}'): a step must not ask (it would wait on its own round). Ask before or after the step.`,
        ),
      );
      return never();
    }
    let question: RenderedQuestion;
    try {
      question = renderQuestion(marker, label);
    } catch (error) {
      gate.fail(error); // a schema the wire cannot carry is a programming error, not something to catch
      return never();
    }
    // 96 bits of the question's digest: a reworded question gets a new key and is asked again.
    const key = questionKey(question.digest.slice(0, 16));
    if (key in carried.a) {
      const outcome = await readAnswer(marker, question.kind, label, carried.a[key]).catch(() => undefined);
      if (outcome !== undefined) {
        answers[key] = carried.a[key];
        return outcome;
      }
      // Recorded but no longer valid for the live question: forget it and ask again.
    }
    if (askedBefore.has(key) && responses !== undefined && key in responses) {
      const response = responses[key];
      const outcome = await readAnswer(marker, question.kind, label, response);
      answers[key] = response;
      return outcome;
    }
    try {
      assertCapability(capabilities, question, label);
    } catch (error) {
      gate.fail(error);
      return never();
    }
    gate.ask(key, question.request);
    return never();
  };

  const journaledCtx: JournaledContext = {
    ...ctx,
    step,
    elicit: async (message, schema) => trusted(await ask(elicitMarker(message, schema))),
    sample: async (params) => acceptedValue<SampleResult>(await ask(sampleMarker(params)), 'ctx.sample()'),
    listRoots: async () => acceptedValue<Root[]>(await ask(rootsMarker()), 'ctx.listRoots()'),
  };

  const outcome = await gate.settle((async () => handler(journaledCtx, args))());
  gate.close();
  switch (outcome.kind) {
    case 'fatal':
    case 'error':
      throw outcome.error;
    case 'done':
      if (isInputRequiredResult(outcome.value)) {
        throw new McpResolveError(
          'invalid_usage',
          'journaled(): the handler returned input_required itself; ask with ctx.elicit(), ctx.sample() or ctx.listRoots().',
        );
      }
      return outcome.value;
    case 'suspended': {
      const questions = Object.keys(outcome.questions);
      const journal: Journal = { v: 1, s: steps, a: answers, p: questions };
      const { text, bytes } = encodeJournal(journal);
      if (bytes > maxBytes) {
        throw new McpResolveError(
          'invalid_usage',
          `journaled(): this call's journal is ${bytes} bytes, over maxJournalBytes (${maxBytes}). ` +
            'Record ids rather than documents in ctx.step(), or raise maxJournalBytes.',
        );
      }
      onSuspend?.({ journalBytes: bytes, questions: questions.length });
      return inputRequired({ inputRequests: outcome.questions, requestState: text });
    }
  }
}
