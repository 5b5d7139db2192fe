/**
 * Orchestration, for both eras in one place: run until the work is done or waits on questions,
 * let the era's strategy end the round, and either reply (modern) or settle the answers and run
 * again (legacy).
 */
import type { InputRequiredResult } from '@modelcontextprotocol/server';

import type { ElicitationResult } from './markers.js';
import type { Question } from './render.js';
import type { RoundStrategy } from './strategy.js';

/** What one run reached: the work's value, or questions it waits on. */
export type RunResult<T> =
  { readonly kind: 'done'; readonly value: T } | { readonly kind: 'waiting'; readonly questions: readonly Question[] };

/** A client of the questions layer, seen from the orchestration. */
export interface QuestionRun<T> {
  /** Runs (or goes on running) until done or waiting on questions. */
  run(): Promise<RunResult<T>>;
  /** Hands a waiting question its answer (a rejection carries the reason there is none) before the next run. */
  settle(question: Question, outcome: Promise<ElicitationResult<unknown>>): Promise<void>;
}

/** Runs `work` to its value, or to the `input_required` reply that ends this round. */
export async function runRounds<T>(strategy: RoundStrategy, work: QuestionRun<T>): Promise<T | InputRequiredResult> {
  for (;;) {
    const run = await work.run();
    if (run.kind === 'done') return run.value;
    const end = await strategy.end(run.questions);
    if (end.kind === 'reply') return end.result;
    for (const answer of end.answers) await work.settle(answer.question, answer.outcome);
  }
}
