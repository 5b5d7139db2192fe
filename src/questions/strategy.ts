/**
 * Round strategies as the resolver engine and `journaled` see them: how one way of asking gets a
 * question answered, and what one pass reached (the loop that lets the strategy end a round,
 * `runPasses`, is the round's: `round/passes.ts`). A client
 * of the questions layer finds its questions, asks the strategy whether an answer is already known
 * (`recall`), lets it refuse what cannot be asked (`admit`), and when a pass is left waiting on
 * questions hands them to `end`. The 2026-07-28 and 2025-11-25 strategies are in
 * `round/strategies.ts`, the task's in `tasks/strategy.ts`; each asks through the question's
 * channel (`channels/`).
 */
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';

import type { ElicitationResult } from './markers.js';
import type { Question } from './render.js';

/** An answer a strategy obtained for a pending question (a rejection says why there is none). */
export interface Answer {
  readonly question: Question;
  readonly outcome: Promise<ElicitationResult<unknown>>;
}

/** How a round that is waiting on questions ends. */
export type RoundEnd =
  /** Reply to the client now (modern: `input_required`, its `requestState` the plaintext ledger to seal). */
  | { readonly kind: 'reply'; readonly result: InputRequiredResult }
  /** Go on in process with these answers (legacy: the pushes were answered), in the order asked. */
  | { readonly kind: 'answered'; readonly answers: readonly Answer[] }
  /** End the call with this result: a question went to a person off the wire ({@link HandOff}). */
  | { readonly kind: 'handOff'; readonly result: CallToolResult };

/**
 * A question handed to a person off the wire: `result` is the tool result with which an out-of-band
 * channel ends the call, telling the model how the person answers. The pass loop returns it in
 * place of the resolved values; the round returns `result` as the call's result, as it is.
 */
export class HandOff {
  constructor(readonly result: CallToolResult) {}
}

/** Whether `value` is a round's hand-off ({@link HandOff}): the call's result, not a value to go on with. */
export function isHandOff(value: unknown): value is HandOff {
  return value instanceof HandOff;
}

/** How one era gets questions answered. */
export interface RoundStrategy {
  /** The answer this round already has for `question`; `unprompted` accepts one the client sent before being asked. */
  recall(question: Question, unprompted: boolean): Promise<ElicitationResult<unknown> | undefined>;
  /** Throws the protocol error (-32021, or no channel) when `question` cannot be asked here; nothing is sent. */
  admit(question: Question): void;
  /** Ends a round whose run waits on `pending` (every one admitted), in the order found. */
  end(pending: readonly Question[]): Promise<RoundEnd>;
}

/** What one pass reached: the work's value, or questions it waits on. */
export type PassReached<T> =
  { readonly kind: 'done'; readonly value: T } | { readonly kind: 'waiting'; readonly questions: readonly Question[] };

/** A client of the questions layer (the resolver engine, `journaled`), seen from the round's pass loop (`round/passes.ts`). */
export interface PassingWork<T> {
  /** Runs one pass (or goes on running) until done or waiting on questions. */
  run(): Promise<PassReached<T>>;
  /** Hands a waiting question its answer (a rejection carries the reason there is none) before the next pass. */
  settle(question: Question, outcome: Promise<ElicitationResult<unknown>>): Promise<void>;
}
