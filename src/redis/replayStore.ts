/**
 * The fleet-wide replay store: one Redis key per consumed token id, set atomically if absent with
 * an absolute expiry at the end of the token's validity window (`SET key 1 NX PXAT expiresAt`),
 * in a script that first checks the fleet's epoch record. One round trip per sealed round (two
 * when replicas must acknowledge), single use across every instance and every restart.
 *
 * The epoch record (`<prefix>epoch`, written by {@link claimReplayEpoch} when an instance starts)
 * holds the time from which consumed ids are known. A Redis that lost its data (restarted empty,
 * flushed, a replica promoted without it) has no record: the first check after that writes a new
 * one, and every token sealed before it is refused, so a completed call's final round cannot be
 * accepted again. With `replicaAcks`, a round is accepted
 * only once that many replicas acknowledged its key (`WAIT`), so a failover cannot lose it.
 */
import type { RedisClientType, RedisSentinelClientType } from 'redis';

import type { ReplayStore } from '../state/replay.js';

import { McpResolveError } from '../errors.js';
import type { RedisConnection } from './connection.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, isSentinelConnection, withDeadline } from './connection.js';
import { clusterNodeFor, slotPrefix } from './keys.js';
import { redisFailure } from './connectRefusal.js';

/** The default prefix of replay keys. */
export const DEFAULT_REPLAY_KEY_PREFIX = 'mcp-resolve:replay:';

/** The default `WAIT` timeout. */
export const DEFAULT_REPLICA_ACK_TIMEOUT_MS = 500;

/**
 * KEYS[1] the replay key, KEYS[2] the epoch record; ARGV[1] expiresAt, ARGV[2] issuedAt, ARGV[3]
 * the margin of a new epoch. A missing record means Redis lost its data: a new epoch starts at
 * Redis's time plus the margin. Returns 1 (first use), 0 (replayed), -1 (sealed before the
 * epoch) or -2 (the record was lost and is new).
 */
const CONSUME = `
local epoch = redis.call('GET', KEYS[2])
if not epoch then
  local t = redis.call('TIME')
  epoch = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[3])
  redis.call('SET', KEYS[2], string.format('%d', epoch))
  return -2
end
if tonumber(ARGV[2]) < tonumber(epoch) then return -1 end
if redis.call('SET', KEYS[1], '1', 'NX', 'PXAT', ARGV[1]) then return 1 end
return 0
`;

/** Writes the epoch record unless it exists. */
const CLAIM_EPOCH = "redis.call('SET', KEYS[1], ARGV[1], 'NX') return 1";

/** The epoch record of the replay keys under `keyPrefix` (hash-tagged with them). */
const epochKeyOf = (keyPrefix: string, api: string): string => `${slotPrefix(keyPrefix, api)}epoch`;

/**
 * Writes the epoch record under `keyPrefix` if it is missing (at `at`, default now), so tokens
 * sealed from then on pass. Call it once before an instance serves (`connectRedisFleet` does):
 * a store that finds no record takes it for lost data and refuses the tokens sealed before.
 */
export async function claimReplayEpoch(
  redis: RedisConnection,
  keyPrefix = DEFAULT_REPLAY_KEY_PREFIX,
  at = Date.now(),
): Promise<void> {
  // A script, as every replay check is: an ACL user that may not run them is refused here, at start.
  await redis.eval(CLAIM_EPOCH, {
    keys: [epochKeyOf(keyPrefix, 'claimReplayEpoch()')],
    arguments: [String(Math.floor(at))],
  });
}

/** One connection to the primary. */
type Primary = RedisClientType | RedisSentinelClientType;

/**
 * Runs `operation` on one connection to the primary holding `key` (Sentinel: a leased client; a
 * cluster: the connection to the key's primary), so `WAIT` covers its write.
 */
async function onOneConnection<T>(
  redis: RedisConnection,
  key: string,
  operation: (client: Primary) => Promise<T>,
): Promise<T> {
  if (isSentinelConnection(redis)) return redis.use(operation);
  return operation((await clusterNodeFor(redis, key)) ?? (redis as RedisClientType));
}

/**
 * Creates a {@link ReplayStore} over `redis`. When Redis cannot answer, answers with an error
 * (read-only replica, out of memory) or lacks replica acknowledgements, `consume` rejects with
 * {@link McpResolveError} (`redis_unavailable`) and the sealer fails the round closed: the check is
 * never skipped. A check that failed may still have written its key, so the refused round's token
 * can stay consumed: the client starts the call again, and no token is ever accepted twice.
 */
export function createRedisReplayStore(
  redis: RedisConnection,
  options: {
    /** Prefix of the replay keys; use one per audience sharing a Redis. @default 'mcp-resolve:replay:' */
    readonly keyPrefix?: string;
    /** How long one check may wait for Redis, in ms (default 2,000); then the round fails closed. */
    readonly commandTimeoutMs?: number;
    /**
     * Replicas that must acknowledge a consumed id before the round is accepted (`WAIT`); default 0,
     * and 1 for a Sentinel or cluster connection made by `connectRedisFleet`. Fewer acknowledgements: the round fails closed.
     */
    readonly replicaAcks?: number;
    /** How long `WAIT` may take, in ms. @default 500 */
    readonly replicaAckTimeoutMs?: number;
    /**
     * How far past Redis's clock a new epoch starts when the record is found missing, in ms (default
     * 1,000): the largest clock difference between an instance and Redis that still refuses every old token.
     */
    readonly epochMarginMs?: number;
    /** Receives each failed check, and each detected loss of Redis's data, with the reason. */
    readonly onerror?: (error: Error) => void;
  } = {},
): ReplayStore {
  const prefix = slotPrefix(options.keyPrefix ?? DEFAULT_REPLAY_KEY_PREFIX, 'createRedisReplayStore()');
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const replicaAcks = options.replicaAcks ?? 0;
  const ackTimeoutMs = options.replicaAckTimeoutMs ?? DEFAULT_REPLICA_ACK_TIMEOUT_MS;
  const margin = options.epochMarginMs ?? 1_000;
  const epochKey = `${prefix}epoch`;

  const check = (client: Primary, tokenId: string, expiresAt: number, issuedAt: number) =>
    client.eval(CONSUME, {
      keys: [prefix + tokenId, epochKey],
      arguments: [String(Math.ceil(expiresAt)), String(Math.floor(issuedAt)), String(margin)],
    });

  const acknowledge = async (client: Primary): Promise<void> => {
    if (replicaAcks === 0) return;
    const acks = await client.wait(replicaAcks, ackTimeoutMs);
    if (acks < replicaAcks) {
      throw new Error(`the consumed id reached ${acks} of ${replicaAcks} replica(s) within ${ackTimeoutMs} ms`);
    }
  };

  const lost = (): void =>
    options.onerror?.(
      new McpResolveError(
        'redis_unavailable',
        `Replay check: Redis lost its replay records (the epoch record ${epochKey} was missing; restarted empty, flushed or failed over without it). Every token sealed before now is refused; calls in flight start again.`,
        { data: { operation: 'replay_check', recordsLost: true } },
      ),
    );

  return {
    async consume(tokenId, expiresAt, issuedAt = Number.MAX_SAFE_INTEGER) {
      let reply: unknown;
      try {
        reply = await withDeadline(
          onOneConnection(redis, epochKey, async (client) => {
            const outcome = await check(client, tokenId, expiresAt, issuedAt);
            if (outcome === 1) await acknowledge(client);
            return outcome;
          }),
          timeoutMs,
        );
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const failure = new McpResolveError(
          'redis_unavailable',
          `Replay check failed: ${redisFailure(reason)}. The round is refused (its token may already count as used); start the call again once Redis answers.`,
          { data: { operation: 'replay_check' }, cause: error },
        );
        options.onerror?.(failure);
        throw failure;
      }
      if (reply === -2) lost();
      return reply === 1;
    },
  };
}
