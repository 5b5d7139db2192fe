/**
 * Where refused answers are counted (see `answerAttempts`): one counter per key, with an expiry
 * fixed by the answer that opened its window. `connectRedisFleet` gives a Redis-backed store every
 * instance shares; without one each server counts in memory.
 *
 * The memory store is bounded (`maxEntries`) and never evicts a live counter: an attacker who
 * could push its own counter out by filling the store with others would get its attempts back.
 * When the store is full of live counters, an answer under a key it does not hold counts as every
 * attempt spent (it is refused unread) until the oldest counter's window ends: a flood delays new
 * answers by at most one window, and never reopens a question. Only refused answers stay counted
 * (an answer taken back leaves nothing), so filling it takes `maxEntries` refused answers under
 * distinct people or questions within one window.
 */
import { McpResolveError } from '../errors.js';

/** A counter as a store reports it. */
export interface AttemptTally {
  /** Answers counted in the window (`Infinity`: a full memory store counted it as every attempt spent). */
  readonly count: number;
  /** How long until the window ends, in ms. */
  readonly retryMs: number;
}

/** Where refused answers are counted; implement it over a shared store (e.g. Redis `INCR` + `PEXPIRE`) for a fleet. */
export interface AttemptStore {
  /**
   * Atomically counts one answer under `key` and returns the counter: a missing or expired one
   * starts a window of `windowMs` at 1.
   */
  count(key: string, windowMs: number): Promise<AttemptTally>;
  /** Takes back one answer counted under `key` (it was not refused); nothing when its window ended. */
  uncount(key: string): Promise<void>;
}

/** How long a question's spent attempts keep it refused by default, in ms (15 minutes). */
export const DEFAULT_ATTEMPTS_WINDOW_MS = 900_000;

/** Options of the server's `answerAttempts`: where refused answers are counted, and for how long. */
export interface AnswerAttemptsOptions {
  /** Where refused answers are counted: pass `RedisFleet.attempts` on a fleet. @default an in-memory store per server */
  readonly store?: AttemptStore;
  /** How long a question whose attempts are spent stays refused, in ms, from the first refused answer of its window. @default 900_000 (15 minutes) */
  readonly windowMs?: number;
}

/** The server's counting of refused answers (the `answerAttempts` option, resolved). */
export interface AnswerAttempts {
  readonly store: AttemptStore;
  /** How long a window lasts, in ms, from the first refused answer it counts. */
  readonly windowMs: number;
  /** One answer to one counter read at a time in this process, so answers in flight together are never refused for one another. */
  readonly turns: KeyedTurns;
}

/** Runs work for one key at a time, in the order it arrives. */
export interface KeyedTurns {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** Fresh turns: the keys held are those with work in flight. */
export function createKeyedTurns(): KeyedTurns {
  const tails = new Map<string, Promise<void>>();
  return {
    run(key, work) {
      const result = (tails.get(key) ?? Promise.resolve()).then(work);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
  };
}

/** Whose answers one round counts, and for which tool (on the context: `answerAttempts` in context.ts). */
export interface AttemptCounter {
  readonly attempts: AnswerAttempts;
  /** The tool (or prompt) that asks. */
  readonly target: string;
  /** Whom its answers count against (`answeringPerson`); `undefined`: nobody known, each call bounds its own. */
  person(): string | undefined;
}

/** The default cap of the memory store (≈ 16 MB of heap at the measured ≈ 157 bytes per counter). */
const DEFAULT_MAX_ATTEMPT_ENTRIES = 100_000;

/** Creates the in-memory {@link AttemptStore} of one process (a fleet shares a Redis store instead). */
export function createMemoryAttemptStore(
  options: {
    /** Clock in ms since the epoch (default `Date.now`). */
    readonly now?: () => number;
    /** The most counters held; past it, an answer under a new key counts as every attempt spent until the oldest window ends (default 100,000). */
    readonly maxEntries?: number;
  } = {},
): AttemptStore {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ATTEMPT_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new McpResolveError(
      'invalid_options',
      `createMemoryAttemptStore(): options.maxEntries must be a positive integer (got ${String(maxEntries)}).`,
      { data: { api: 'createMemoryAttemptStore()', option: 'maxEntries' } },
    );
  }
  /** Counters in the order their windows opened; windows of one length also end in that order. */
  const counters = new Map<string, { count: number; resetAt: number }>();
  const sweep = (at: number, all: boolean): void => {
    for (const [key, counter] of counters) {
      if (counter.resetAt <= at) counters.delete(key);
      else if (!all) return;
    }
  };
  return {
    async count(key, windowMs) {
      const at = now();
      sweep(at, false);
      const held = counters.get(key);
      if (held !== undefined && held.resetAt > at) {
        held.count += 1;
        return { count: held.count, retryMs: held.resetAt - at };
      }
      counters.delete(key);
      if (counters.size >= maxEntries) sweep(at, true);
      if (counters.size >= maxEntries) {
        // Full of live counters: none is evicted, and this answer counts as every attempt spent.
        let resetAt = Number.POSITIVE_INFINITY;
        for (const counter of counters.values()) resetAt = Math.min(resetAt, counter.resetAt);
        return { count: Number.POSITIVE_INFINITY, retryMs: resetAt - at };
      }
      counters.set(key, { count: 1, resetAt: at + windowMs });
      return { count: 1, retryMs: windowMs };
    },
    async uncount(key) {
      const held = counters.get(key);
      if (held === undefined) return;
      held.count -= 1;
      if (held.count <= 0 || held.resetAt <= now()) counters.delete(key);
    },
  };
}
