/**
 * The fleet-wide replay store: one Redis key per consumed token id, set atomically if absent with
 * an absolute expiry at the end of the token's validity window (`SET key 1 NX PXAT expiresAt`):
 * one round trip per sealed round, single use across every instance and every restart.
 */
import type { ReplayStore } from '../state/replay.js';

import { McpResolveError } from '../errors.js';
import type { RedisConnection } from './connection.js';

/** Options of {@link createRedisReplayStore}. */
export interface RedisReplayStoreOptions {
  /** Prefix of the replay keys (default `mcp-resolve:replay:`); use one per audience sharing a Redis. */
  readonly keyPrefix?: string;
  /** Receives each failed check with the reason (the sealer's own log line is a fixed reason code). */
  readonly onerror?: (error: Error) => void;
}

/** The default prefix of replay keys. */
export const DEFAULT_REPLAY_KEY_PREFIX = 'mcp-resolve:replay:';

/**
 * Creates a {@link ReplayStore} over `redis`. When Redis cannot answer, `consume` rejects with
 * {@link McpResolveError} (`redis_unavailable`) and the sealer fails the round closed: the check is
 * never skipped.
 */
export function createRedisReplayStore(redis: RedisConnection, options: RedisReplayStoreOptions = {}): ReplayStore {
  const prefix = options.keyPrefix ?? DEFAULT_REPLAY_KEY_PREFIX;
  return {
    async consume(tokenId, expiresAt) {
      let reply: string | null;
      try {
        const expiration = { type: 'PXAT', value: Math.ceil(expiresAt) } as const;
        reply = await redis.set(prefix + tokenId, '1', { condition: 'NX', expiration });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const failure = new McpResolveError(
          'redis_unavailable',
          `Replay check failed: Redis did not answer (${reason}). The round is refused; it succeeds again once Redis is back.`,
          { cause: error },
        );
        options.onerror?.(failure);
        throw failure;
      }
      return reply === 'OK';
    },
  };
}
