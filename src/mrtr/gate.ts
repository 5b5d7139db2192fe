/**
 * Ending a round without an exception: a handler waiting on an unanswered question awaits a
 * promise that never settles, and the gate decides when the round is over. It races the
 * handler's completion against "a question is pending", waits for journaled work still in flight,
 * and lets the microtask and immediate queues drain, so that questions asked concurrently
 * (`Promise.all`) join the same round.
 */
import type { Question } from '../questions/render.js';

/** How a round ended: the handler's value or error, a suspension on pending questions, or a fault the handler cannot swallow. */
export type GateOutcome<T> =
  | { readonly kind: 'done'; readonly value: T }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'suspended'; readonly questions: readonly Question[] }
  | { readonly kind: 'fatal'; readonly error: unknown };

/** A promise that never settles: what an unanswered question gives the handler. */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => {});
}

const immediate = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The bookkeeping of one round: pending questions, work in flight, and faults. */
export class RoundGate {
  private readonly pending = new Map<string, Question>();
  private inFlight = 0;
  private activity = 0;
  private fault: { readonly error: unknown } | undefined;
  private wake: (() => void) | undefined;
  private closed = false;

  /** Whether the round has ended; work a dropped handler starts afterwards must not run. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Registers a question the handler is now waiting on. */
  ask(question: Question): void {
    this.pending.set(question.key, question);
    this.bump();
  }

  /** Drops a question from the pending set once its answer is handed over (the run goes on in process). */
  answered(key: string): void {
    this.pending.delete(key);
  }

  /** Runs `work` as journaled work the round must wait for before it may end. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    this.bump();
    try {
      return await work();
    } finally {
      this.inFlight -= 1;
      this.bump();
    }
  }

  /** Ends the round with `error` whatever the handler does (usage errors, capability refusals, bounds). */
  fail(error: unknown): void {
    this.fault ??= { error };
    this.bump();
  }

  /** Waits until the handler settles, a fault occurs, or the round can end on its pending questions. */
  async settle<T>(handler: Promise<T>): Promise<GateOutcome<T>> {
    let finished: GateOutcome<T> | undefined;
    const done = handler.then(
      (value) => {
        finished = { kind: 'done', value };
      },
      (error: unknown) => {
        finished = { kind: 'error', error };
      },
    );
    try {
      for (;;) {
        if (this.fault !== undefined) return { kind: 'fatal', error: this.fault.error };
        if (finished !== undefined) return finished;
        if (this.pending.size > 0 && this.inFlight === 0) {
          const before = this.activity;
          await immediate();
          if (this.fault !== undefined || finished !== undefined) continue;
          if (this.activity === before && this.inFlight === 0)
            return { kind: 'suspended', questions: [...this.pending.values()] };
          continue;
        }
        const woken = new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        await Promise.race([done, woken]);
      }
    } finally {
      this.wake = undefined;
    }
  }

  /** Closes the round: nothing the dropped handler does afterwards is recorded or run. */
  close(): void {
    this.closed = true;
  }

  private bump(): void {
    this.activity += 1;
    this.wake?.();
  }
}
