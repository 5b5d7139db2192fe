/**
 * The replay guard's store: consumed token ids with expiry.
 *
 * The in-memory store keeps a `Map` in insertion order and evicts expired entries from its front
 * on every call, so memory is bounded by the tokens consumed within one validity window; a hard
 * cap (`maxEntries`) evicts the oldest entries beyond that.
 */
import { McpResolveError } from '../errors.js';

/** Where the replay guard records consumed token ids; implement it over a shared store (e.g. Redis `SET NX PXAT`) for a fleet. */
export interface ReplayStore {
  /**
   * Atomically marks `tokenId` consumed until `expiresAt` (ms since the epoch) and returns `true`
   * on its first use, `false` if it was already consumed. `issuedAt` (ms since the epoch,
   * authenticated) lets a shared store refuse tokens sealed before it lost its records.
   */
  consume(tokenId: string, expiresAt: number, issuedAt?: number): boolean | Promise<boolean>;
}

/** The in-memory {@link ReplayStore} (synchronous), with its current size for monitoring. */
type MemoryReplayStore = ReturnType<typeof createMemoryReplayStore>;

/** The default cap of the in-memory store (≈ 70 MB at the measured ≈ 70 bytes per entry). */
export const DEFAULT_MAX_REPLAY_ENTRIES = 1_000_000;

const FULL_SWEEP_INTERVAL_MS = 1_000;

/** Creates an in-memory replay store for one process (a fleet needs a shared store instead). */
export function createMemoryReplayStore(
  options: {
    /** Clock in ms since the epoch (default `Date.now`). */
    now?: () => number;
    /** Hard cap on remembered ids; beyond it the oldest are forgotten early (default 1,000,000). */
    maxEntries?: number;
  } = {},
): {
  /** Synchronous {@link ReplayStore.consume}: the returned store is a {@link ReplayStore}. */
  consume(tokenId: string, expiresAt: number): boolean;
  /** How many token ids are currently remembered, for monitoring. */
  readonly size: number;
} {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_REPLAY_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new McpResolveError(
      'invalid_options',
      `createMemoryReplayStore(): options.maxEntries must be a positive integer (got ${String(maxEntries)}).`,
      { data: { api: 'createMemoryReplayStore()', option: 'maxEntries' } },
    );
  }
  const consumed = new Map<string, number>();
  let lastFullSweep = Number.NEGATIVE_INFINITY;
  /** When the oldest remembered id expires (+∞ when none, −∞ when unknown): the front is swept only once that time has come. */
  let frontExpiresAt = Number.POSITIVE_INFINITY;

  const sweepFront = (at: number): void => {
    for (const [id, expiresAt] of consumed) {
      if (expiresAt > at) {
        frontExpiresAt = expiresAt;
        return;
      }
      consumed.delete(id);
    }
    frontExpiresAt = Number.POSITIVE_INFINITY;
  };
  const sweepAll = (at: number): void => {
    for (const [id, expiresAt] of consumed) if (expiresAt <= at) consumed.delete(id);
  };

  return {
    get size() {
      return consumed.size;
    },
    consume(tokenId, expiresAt) {
      const at = now();
      if (at >= frontExpiresAt) sweepFront(at);
      const known = consumed.get(tokenId);
      if (known !== undefined && known > at) return false;
      if (expiresAt <= at) return true; // already past its validity: nothing left to guard
      if (known !== undefined) consumed.delete(tokenId);
      if (consumed.size >= maxEntries) {
        if (at - lastFullSweep >= FULL_SWEEP_INTERVAL_MS) {
          lastFullSweep = at;
          sweepAll(at);
        }
        for (const id of consumed.keys()) {
          if (consumed.size < maxEntries) break;
          consumed.delete(id);
        }
        frontExpiresAt = Number.NEGATIVE_INFINITY; // the front went: read it again on the next call
      }
      if (consumed.size === 0) frontExpiresAt = expiresAt;
      consumed.set(tokenId, expiresAt);
      return true;
    },
  };
}

let processStore: MemoryReplayStore | undefined;

/** The in-memory store shared by every sealer of this process that uses the default clock. */
export function processReplayStore(): MemoryReplayStore {
  processStore ??= createMemoryReplayStore();
  return processStore;
}
