/**
 * Running passes for both eras in one place: pass until the work is done or waits on questions,
 * let the era's strategy end the round, and either reply (modern) or settle the answers and pass
 * again (legacy, in the same round).
 */
import type { InputRequiredResult } from '@modelcontextprotocol/server';

import type { ElicitationResult } from './markers.js';
import type { Question } from './render.js';
import type { RoundStrategy } from './strategy.js';

/** What one pass reached: the work's value, or questions it waits on. */
export type PassReached<T> =
  { readonly kind: 'done'; readonly value: T } | { readonly kind: 'waiting'; readonly questions: readonly Question[] };

/** A client of the questions layer (the resolver engine, `journaled`), seen from {@link runPasses}. */
export interface PassingWork<T> {
  /** Runs one pass (or goes on running) until done or waiting on questions. */
  run(): Promise<PassReached<T>>;
  /** Hands a waiting question its answer (a rejection carries the reason there is none) before the next pass. */
  settle(question: Question, outcome: Promise<ElicitationResult<unknown>>): Promise<void>;
}

/**
 * Passes `work` to its value, or to the `input_required` reply that ends this round. The round's
 * strategy is asked for only when a pass waits on questions.
 */
export async function runPasses<T>(
  source: { strategy(): RoundStrategy },
  work: PassingWork<T>,
): Promise<T | InputRequiredResult> {
  for (;;) {
    const reached = await work.run();
    if (reached.kind === 'done') return reached.value;
    const end = await source.strategy().end(reached.questions);
    if (end.kind === 'reply') return end.result;
    for (const answer of end.answers) await work.settle(answer.question, answer.outcome);
  }
}
