/**
 * Where `suspending()` keeps suspended handlers between rounds: in this process's memory, under
 * a random id that travels in the sealed `requestState`, for a TTL, with a cap on how many wait.
 */
import { McpResolveError } from '../errors.js';

/** Options of {@link createContinuationStore}. */
type ContinuationStoreOptions = NonNullable<Parameters<typeof createContinuationStore>[0]>;

/**
 * Where a process keeps suspended handlers of `suspending()` between rounds; give each server its own.
 * `createContinuationStore()` gives the in-memory one; implement this interface to wrap it (to
 * count, log or cap differently) or to replace it. A frame holds live promises (the handler's
 * pending run), so a store keeps it as is in this process's memory: it cannot be serialised or
 * shared with another instance.
 */
export interface ContinuationStore {
  /** How many suspended handlers the store holds now. */
  readonly size: number;
  /** How long a suspended handler is kept, in ms. */
  readonly ttlMs: number;
  /**
   * Keeps `frame` and returns a new id for it. The id travels to the client (sealed in
   * `requestState`), so it must be unguessable (for example `crypto.randomUUID()`), and fresh on
   * every call.
   */
  put(frame: object): string;
  /**
   * Removes and returns the frame kept under `id`, or `undefined` when it is unknown, expired or
   * already taken: an id is good for one round only.
   */
  take(id: string): object | undefined;
}

/** The in-memory store: frames under random ids, dropped after the TTL or when full. */
export class MemoryContinuationStore implements ContinuationStore {
  readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly frames = new Map<string, { readonly frame: object; readonly expiresAt: number }>();

  constructor(options: ContinuationStoreOptions) {
    this.ttlMs = options.ttlMs ?? 600_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
    if (!(Number.isFinite(this.ttlMs) && this.ttlMs > 0)) {
      throw new McpResolveError(
        'invalid_options',
        `createContinuationStore(): ttlMs must be a positive number of ms (got ${String(options.ttlMs)}).`,
        { data: { api: 'createContinuationStore()', option: 'ttlMs' } },
      );
    }
    if (!(Number.isSafeInteger(this.maxEntries) && this.maxEntries > 0)) {
      throw new McpResolveError(
        'invalid_options',
        `createContinuationStore(): maxEntries must be a positive integer (got ${String(options.maxEntries)}).`,
        { data: { api: 'createContinuationStore()', option: 'maxEntries' } },
      );
    }
  }

  get size(): number {
    return this.frames.size;
  }

  /** Keeps `frame` until the TTL passes and returns its new id (a fresh id every round). */
  put(frame: object): string {
    const now = this.now();
    for (const [id, entry] of this.frames) {
      if (entry.expiresAt > now && this.frames.size < this.maxEntries) break;
      this.frames.delete(id); // insertion order is expiry order: drop the expired, then the oldest while full
    }
    const id = crypto.randomUUID(); // Web Crypto: every runtime
    this.frames.set(id, { frame, expiresAt: now + this.ttlMs });
    return id;
  }

  /** Removes and returns the frame kept under `id`, unless it is unknown or expired. */
  take(id: string): object | undefined {
    const entry = this.frames.get(id);
    if (entry === undefined) return undefined;
    this.frames.delete(id);
    return entry.expiresAt > this.now() ? entry.frame : undefined;
  }
}

/** Creates an in-memory store for suspended handlers of `suspending()`. */
export function createContinuationStore(
  options: {
    /** How long a suspended handler waits for the client's next round, in ms. @default 600000 (10 minutes) */
    readonly ttlMs?: number;
    /** The most suspended handlers kept; beyond it the oldest is dropped (its client is told to start over). @default 10000 */
    readonly maxEntries?: number;
    /** Clock in ms since the epoch, for tests. @default Date.now */
    readonly now?: () => number;
  } = {},
): ContinuationStore {
  return new MemoryContinuationStore(options);
}
