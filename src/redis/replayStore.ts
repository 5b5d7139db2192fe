/**
 * The fleet-wide replay store: one Redis key per consumed token id, set atomically if absent with
 * an absolute expiry at the end of the token's validity window (`SET key 1 NX PXAT expiresAt`):
 * one round trip per sealed round, single use across every instance and every restart.
 */
import type { ReplayStore } from '../state/replay.js';

import { McpResolveError } from '../errors.js';
import type { RedisConnection } from './connection.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, withDeadline } from './connection.js';

/** Options of {@link createRedisReplayStore}. */
export interface RedisReplayStoreOptions {
  /** Prefix of the replay keys (default `mcp-resolve:replay:`); use one per audience sharing a Redis. */
  readonly keyPrefix?: string;
  /** How long one check may wait for Redis, in ms (default 2,000); then the round fails closed. */
  readonly commandTimeoutMs?: number;
  /** Receives each failed check with the reason (the sealer's own log line is a fixed reason code). */
  readonly onerror?: (error: Error) => void;
}

/** The default prefix of replay keys. */
export const DEFAULT_REPLAY_KEY_PREFIX = 'mcp-resolve:replay:';

/**
 * Creates a {@link ReplayStore} over `redis`. When Redis cannot answer, `consume` rejects with
 * {@link McpResolveError} (`redis_unavailable`) and the sealer fails the round closed: the check is
 * never skipped. A check that timed out may still reach Redis later, so the refused round's token
 * can stay consumed: the client starts the call again, and no token is ever accepted twice.
 */
export function createRedisReplayStore(redis: RedisConnection, options: RedisReplayStoreOptions = {}): ReplayStore {
  const prefix = options.keyPrefix ?? DEFAULT_REPLAY_KEY_PREFIX;
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  return {
    async consume(tokenId, expiresAt) {
      let reply: string | null;
      try {
        const expiration = { type: 'PXAT', value: Math.ceil(expiresAt) } as const;
        reply = await withDeadline(redis.set(prefix + tokenId, '1', { condition: 'NX', expiration }), timeoutMs);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const failure = new McpResolveError(
          'redis_unavailable',
          `Replay check failed: Redis did not answer (${reason}). The round is refused (its token may already count as used); start the call again once Redis answers.`,
          { cause: error },
        );
        options.onerror?.(failure);
        throw failure;
      }
      return reply === 'OK';
    },
  };
}
