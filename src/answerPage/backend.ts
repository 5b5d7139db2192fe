/**
 * Where answer pages and their answers are kept: a small key-value store with absolute expiry, set
 * if absent, read, read-and-delete and delete. This is the whole contract a fleet's shared store
 * implements (Redis: `SET NX PXAT`, `GET`, `GETDEL`, `DEL`); the replay store's contract marks ids
 * only and holds no values, so pages have this one. The in-memory backend here bounds its bytes.
 */
import { ToolError } from '../errors.js';
import { positiveInteger } from '../optionChecks.js';

/** What the answer page store needs from a key-value store. Every method may be asynchronous. */
export interface AnswerPageBackend {
  /**
   * Stores `value` under `key` until `expiresAt` (ms since the epoch); with `onlyIfAbsent`, only
   * when `key` holds no live value. Resolves `true` when stored.
   */
  set(key: string, value: string, expiresAt: number, onlyIfAbsent: boolean): Promise<boolean>;
  /** The live value under `key`, or `undefined`. */
  get(key: string): Promise<string | undefined>;
  /** Reads and deletes the live value under `key` in one step: of concurrent callers, one gets it. */
  take(key: string): Promise<string | undefined>;
  /** Deletes `keys` (missing ones are ignored). */
  delete(...keys: string[]): Promise<void>;
}

/** Options of {@link createMemoryAnswerPageBackend}. */
export interface MemoryAnswerPageBackendOptions {
  /**
   * Most bytes held at once (UTF-16 length of keys and values, plus 64 per entry); past it, after
   * expired entries are swept, a new entry is refused with a `ToolError`. @default 16_777_216 (16 MiB)
   */
  readonly maxBytes?: number;
  /** Clock in ms since the epoch. @default Date.now */
  readonly now?: () => number;
}

/** The in-memory {@link AnswerPageBackend}, with what it holds for monitoring. */
export interface MemoryAnswerPageBackend extends AnswerPageBackend {
  /** Bytes held now (see {@link MemoryAnswerPageBackendOptions.maxBytes}). */
  readonly bytes: number;
  /** Entries held now. */
  readonly size: number;
}

/** The default byte budget of the in-memory backend (16 MiB). */
export const DEFAULT_ANSWER_PAGE_MEMORY_BYTES = 16 * 1024 * 1024;

const ENTRY_OVERHEAD = 64;

interface Entry {
  readonly value: string;
  readonly expiresAt: number;
  readonly bytes: number;
}

/** Creates an in-memory answer page backend for one process (a fleet needs a shared one, such as Redis). */
export function createMemoryAnswerPageBackend(options: MemoryAnswerPageBackendOptions = {}): MemoryAnswerPageBackend {
  const api = 'createMemoryAnswerPageBackend()';
  const maxBytes = positiveInteger(api, 'maxBytes', options.maxBytes, DEFAULT_ANSWER_PAGE_MEMORY_BYTES);
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > now()) return entry;
    remove(key);
    return undefined;
  };
  let lastSweep = Number.NEGATIVE_INFINITY;
  /** Drops expired entries, at most once a second (a full store must not make every write a full scan). */
  const sweep = (): void => {
    const at = now();
    if (at - lastSweep < 1_000) return;
    lastSweep = at;
    for (const [key, entry] of entries) if (entry.expiresAt <= at) remove(key);
  };

  return {
    get bytes() {
      return bytes;
    },
    get size() {
      return entries.size;
    },
    async set(key, value, expiresAt, onlyIfAbsent) {
      const existing = live(key);
      if (onlyIfAbsent && existing !== undefined) return false;
      if (expiresAt <= now()) return false;
      const size = key.length + value.length + ENTRY_OVERHEAD;
      const freed = existing?.bytes ?? 0;
      if (bytes - freed + size > maxBytes) sweep();
      if (bytes - (live(key)?.bytes ?? 0) + size > maxBytes) {
        throw new ToolError(
          `Answer pages: this server holds at most ${maxBytes} bytes of open questions and answers, and that is reached. Try again later.`,
        );
      }
      remove(key);
      entries.set(key, { value, expiresAt, bytes: size });
      bytes += size;
      return true;
    },
    async get(key) {
      return live(key)?.value;
    },
    async take(key) {
      const entry = live(key);
      remove(key);
      return entry?.value;
    },
    async delete(...keys) {
      for (const key of keys) remove(key);
    },
  };
}
