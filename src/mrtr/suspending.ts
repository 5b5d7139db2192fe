/**
 * A suspending handler: linear code whose `await ctx.elicit()` is a genuine suspension point. The
 * handler's frame (its pending promise) stays in this process's memory between rounds, in a
 * continuation store with a TTL, keyed by a random id that travels in the sealed `requestState`.
 * A round that reaches another instance, or arrives after the TTL, fails with a clear error
 * telling the client to start over: multi-instance deployments need sticky routing.
 */

import type {
  ClientCapabilities,
  InputRequiredResult,
  StandardSchemaV1,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { amendedContext, roundServicesOf, type ToolContext } from '../context.js';
import { McpResolveError, ToolError } from '../errors.js';
import { assertCapability } from '../questions/capabilities.js';
import { pinOf, occurrenceKeys } from '../questions/ledger.js';
import type { FlatForm } from '../questions/markers.js';
import { formQuestion } from '../questions/markers.js';
import { readCountedAnswer } from '../questions/attempts.js';
import type { Question } from '../questions/render.js';
import { inputRequestsOf, renderQuestion } from '../questions/render.js';
import type { HandlerResult, WrappedBody } from './body.js';
import { never, RoundGate } from './gate.js';
import { parseState } from './json.js';
import type { ContinuationStore } from './continuations.js';

/** Why a suspending `ctx.elicit()` has no value: the human declined or cancelled, or the session cannot be asked (legacy era). */
export type NotAcceptedAction = 'decline' | 'cancel' | 'unavailable';

/**
 * Rejects a suspending `ctx.elicit()` that was not accepted; catch it to take a default. Uncaught, it
 * fails the call with its message (a `ToolError`: written for the client, never masked).
 */
export class ElicitationDeclinedError extends ToolError {
  /** The brand `instanceof ElicitationDeclinedError` checks, the same in every copy of the package. */
  static override readonly brand: string = 'mcp-resolve.elicitation-declined';

  /** What happened instead of an accepted answer. */
  readonly action: NotAcceptedAction;

  constructor(action: NotAcceptedAction, message: string) {
    super(
      action === 'unavailable'
        ? `The question '${message}' cannot be asked on this legacy (2025-11-25) session: suspending handlers suspend only on modern rounds.`
        : `The question '${message}' was answered with ${action}.`,
    );
    this.name = 'ElicitationDeclinedError';
    this.action = action;
  }
}

/** What a suspending handler receives: the tool context of the call's first round, plus a suspending `elicit`. */
export interface SuspendingContext extends ToolContext {
  /** Asks the human `message` and waits (across rounds) for content matching `schema`; rejects with {@link ElicitationDeclinedError} otherwise. */
  elicit<TSchema extends StandardSchemaWithJSON>(
    message: string,
    schema: TSchema & FlatForm<StandardSchemaV1.InferOutput<TSchema>>,
  ): Promise<StandardSchemaV1.InferOutput<TSchema>>;
}

/** A suspending handler: linear code over a {@link SuspendingContext}, returning text or a tool result. */
export type SuspendingHandler<TArgs> = (args: TArgs, ctx: SuspendingContext) => HandlerResult | Promise<HandlerResult>;

/** Options of {@link suspending}. */
export interface SuspendingOptions {
  /** Where suspended handlers wait between rounds (`createContinuationStore()`, or a wrapper of it); one per server. */
  readonly store: ContinuationStore;
}

/** A question a suspended handler waits on. */
interface Waiting {
  readonly question: Question;
  readonly message: string;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** One suspended call: the handler's promise and the questions it waits on. */
class Frame {
  readonly waiting = new Map<string, Waiting>();
  gate = new RoundGate();
  capabilities: ClientCapabilities | undefined;
  /** A key per question, stable for the frame: digest prefix plus occurrence. */
  readonly keyFor = occurrenceKeys();
  /** The handler's run; set as soon as the frame's context exists. */
  result: Promise<HandlerResult> = Promise.resolve('');
}

/** The error a round gets when its continuation is not here. */
export const CONTINUATION_GONE =
  "This call's suspended handler is not on this server: it expired, or this round reached another instance " +
  '(suspending handlers need sticky routing). Start the call over: call the tool again without requestState.';

const ContinuationState = z.object({ c: z.string() });

const CTX_ELICIT_API = 'ctx.elicit()';

function suspendingContext(ctx: ToolContext, frame: Frame): SuspendingContext {
  return amendedContext<SuspendingContext>(ctx, {
    elicit: <TSchema extends StandardSchemaWithJSON>(message: string, schema: TSchema) => {
      if (frame.gate.isClosed) return never<StandardSchemaV1.InferOutput<TSchema>>();
      const ask = formQuestion<StandardSchemaV1.InferOutput<TSchema>>(message, schema);
      let question: Question;
      try {
        const rendered = renderQuestion(ask, CTX_ELICIT_API);
        assertCapability(frame.capabilities, rendered, CTX_ELICIT_API);
        question = { key: frame.keyFor(pinOf(rendered)), label: CTX_ELICIT_API, ask, rendered };
      } catch (error) {
        frame.gate.fail(error); // a schema the wire cannot carry, or a client that cannot answer: not for the handler to catch
        return never<StandardSchemaV1.InferOutput<TSchema>>();
      }
      return new Promise<StandardSchemaV1.InferOutput<TSchema>>((resolve, reject) => {
        frame.waiting.set(question.key, { question, message, resolve, reject });
        frame.gate.ask(question);
      });
    },
  });
}

function legacyContext(ctx: ToolContext): SuspendingContext {
  return amendedContext<SuspendingContext>(ctx, {
    elicit: async (message: string) => {
      throw new ElicitationDeclinedError('unavailable', message);
    },
  });
}

/** Hands this round's answers to the questions the frame waits on (counted: `readCountedAnswer`); unanswered ones are asked again. */
function deliverResponses(frame: Frame, ctx: ToolContext): void {
  const responses = ctx.mcpReq.inputResponses;
  for (const [key, waiting] of frame.waiting) {
    if (responses === undefined || !Object.hasOwn(responses, key)) {
      frame.gate.ask(waiting.question);
      continue;
    }
    frame.waiting.delete(key);
    readCountedAnswer(roundServicesOf(ctx), waiting.question, responses[key]).then(
      (outcome) =>
        outcome.action === 'accept'
          ? waiting.resolve(outcome.value)
          : waiting.reject(new ElicitationDeclinedError(outcome.action, waiting.message)),
      waiting.reject,
    );
  }
}

function isContinuationStore(value: unknown): value is ContinuationStore {
  return (
    typeof value === 'object' &&
    value !== null &&
    'put' in value &&
    typeof value.put === 'function' &&
    'take' in value &&
    typeof value.take === 'function'
  );
}

/**
 * Turns a linear handler into a tool body whose `await ctx.elicit()` suspends it: its frame waits in
 * `options.store`, in this process's memory, between rounds (option H of docs/guides/handler-shapes.md).
 */
export function suspending<TArgs>(handler: SuspendingHandler<TArgs>, options: SuspendingOptions): WrappedBody<TArgs> {
  const store: unknown = options.store;
  if (!isContinuationStore(store)) {
    throw new McpResolveError(
      'invalid_usage',
      'suspending(): the store must be a ContinuationStore, an object with put(frame) and take(id): ' +
        'use createContinuationStore(), or an object that wraps one.',
      { data: { api: 'suspending()' } },
    );
  }
  if (typeof handler !== 'function') {
    throw new McpResolveError(
      'invalid_usage',
      `suspending(): the handler must be a function (got ${typeof handler}).`,
      { data: { api: 'suspending()' } },
    );
  }
  return async (args: TArgs, ctx: ToolContext): Promise<HandlerResult | InputRequiredResult> => {
    if (ctx.era === 'legacy') return handler(args, legacyContext(ctx));
    const state = ctx.mcpReq.requestState();
    let frame: Frame;
    if (state === undefined) {
      frame = new Frame();
      frame.capabilities = ctx.clientCapabilities;
      const lctx = suspendingContext(ctx, frame);
      frame.result = (async () => handler(args, lctx))();
    } else {
      const parsed = parseState(state, ContinuationState);
      const found = parsed === undefined ? undefined : store.take(parsed.c);
      if (!(found instanceof Frame)) throw new ToolError(CONTINUATION_GONE);
      frame = found;
      frame.gate = new RoundGate();
      frame.capabilities = ctx.clientCapabilities;
      deliverResponses(frame, ctx);
    }
    const outcome = await frame.gate.settle(frame.result);
    switch (outcome.kind) {
      case 'fatal':
      case 'error':
        frame.gate.close();
        throw outcome.error;
      case 'done':
        frame.gate.close();
        return outcome.value;
      case 'suspended':
        return inputRequired({
          inputRequests: inputRequestsOf(outcome.questions),
          requestState: JSON.stringify({ c: store.put(frame) }),
        });
    }
  };
}
