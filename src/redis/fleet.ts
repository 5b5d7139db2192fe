/**
 * One call that makes a server instance a fleet member: a Redis connection, the fleet-wide
 * replay store, the shared legacy sessions, and the counters of refused answers.
 */
import type { LegacySessionFleet } from '../hosting/legacy/sessionFleet.js';
import type { AttemptStore } from '../state/attemptStore.js';
import type { ReplayStore } from '../state/replay.js';
import { McpResolveError } from '../errors.js';
import type { RedisConnectOptions, RedisConnection } from './connection.js';
import { openRedis } from './connection.js';
import { ACL_RULE_HINT } from './connectRefusal.js';
import type { RedisClusterTarget, RedisSentinelTarget, RedisTarget } from './target.js';
import { describeRedisTarget } from './target.js';
import { createRedisAttemptStore } from './attemptStore.js';
import { claimReplayEpoch, createRedisReplayStore } from './replayStore.js';
import { createRedisSessionFleet } from './sessionFleet.js';

/** Options of {@link connectRedisFleet}. */
export interface RedisFleetOptions extends RedisConnectOptions {
  /** The Redis URL, e.g. `redis://127.0.0.1:6379` (or give `sentinel` or `cluster`). */
  readonly url?: string;
  /** Sentinel addresses and the monitored primary's name (and the sentinels' own login, when they require one), instead of `url`. */
  readonly sentinel?: RedisSentinelTarget;
  /** Redis Cluster node addresses, instead of `url`: every node must run `maxmemory-policy noeviction` and every slot have a primary. */
  readonly cluster?: RedisClusterTarget;
  /** Replicas that must acknowledge a consumed token id before a round is accepted (default: 1 with `sentinel` or `cluster`, else 0). */
  readonly replicaAcks?: number;
  /** How long that acknowledgement may take, in ms (default 500); then the round fails closed. */
  readonly replicaAckTimeoutMs?: number;
  /** This instance's id (default: a random UUID); shown in the `Mcp-Resolve-Instance` header. */
  readonly instanceId?: string;
  /** Prefix of every key and channel (default `mcp-resolve:`); one per fleet sharing a Redis. */
  readonly keyPrefix?: string;
}

/** A connected fleet member. */
export interface RedisFleet {
  /** Pass as `requestState.replayStore` (an `McpResolveServer` option): single use across every instance and restart. */
  readonly replayStore: ReplayStore;
  /** Pass as `sessionFleet` to `serveHttp` / `createDualEraHandler`: legacy sessions any instance serves. */
  readonly sessions: LegacySessionFleet;
  /** Pass as `answerAttempts.store` (an `McpResolveServer` option): a question's attempts count across every instance. */
  readonly attempts: AttemptStore;
  /** The underlying connection. */
  readonly redis: RedisConnection;
  /** Closes the connection (close the HTTP server first). */
  close(): Promise<void>;
}

/**
 * Connects to Redis (a URL, a Sentinel-managed primary, or a Redis Cluster) and returns what a
 * fleet member shares; throws `McpResolveError` (`redis_unavailable`) naming the URL, the sentinels
 * and master name, or the cluster nodes when Redis cannot be reached, and (`invalid_options`) when
 * Redis may evict keys (its `maxmemory-policy` is not `noeviction`; on a cluster, on any node,
 * named) unless `allowEvictingRedis` is set; (`redis_unavailable`) when a cluster slot has no live
 * primary, when TLS or the ACL refuses the connection (naming what to set, as `connectRedis` does),
 * or when the ACL user may not write the epoch record (naming the grant).
 */
export async function connectRedisFleet(options: RedisFleetOptions): Promise<RedisFleet> {
  const {
    url,
    sentinel,
    cluster,
    instanceId,
    keyPrefix = 'mcp-resolve:',
    replicaAcks,
    replicaAckTimeoutMs,
    ...connect
  } = options;
  const targets = [url, sentinel, cluster].filter((given) => given !== undefined);
  const target: RedisTarget | undefined = targets.length === 1 ? targets[0] : undefined;
  if (target === undefined) {
    throw new McpResolveError(
      'invalid_options',
      'connectRedisFleet(): give one of url, sentinel or cluster (exactly one).',
      {
        data: {
          api: 'connectRedisFleet()',
          option: cluster !== undefined ? 'cluster' : sentinel !== undefined ? 'sentinel' : 'url',
        },
      },
    );
  }
  const redis = await openRedis(target, connect, 'connectRedisFleet()');
  try {
    await claimReplayEpoch(redis, `${keyPrefix}replay:`);
  } catch (error) {
    await redis.destroy();
    const reason = error instanceof Error ? error.message : String(error);
    throw new McpResolveError(
      'redis_unavailable',
      `Redis at ${describeRedisTarget(target)} refused the replay epoch record (${reason}); ${epochFix(reason)}.`,
      { data: { operation: 'claim_epoch', target: describeRedisTarget(target) } },
    );
  }
  const onerror = connect.onerror;
  const commandTimeoutMs = connect.commandTimeoutMs;
  const timeout = commandTimeoutMs === undefined ? {} : { commandTimeoutMs };
  return {
    redis,
    replayStore: createRedisReplayStore(redis, {
      keyPrefix: `${keyPrefix}replay:`,
      replicaAcks: replicaAcks ?? (url === undefined ? 1 : 0),
      ...(replicaAckTimeoutMs !== undefined && { replicaAckTimeoutMs }),
      ...timeout,
      ...(onerror && { onerror }),
    }),
    attempts: createRedisAttemptStore(redis, {
      keyPrefix: `${keyPrefix}attempts:`,
      ...timeout,
      ...(onerror && { onerror }),
    }),
    sessions: createRedisSessionFleet(redis, {
      keyPrefix: `${keyPrefix}sessions:`,
      ...timeout,
      ...(instanceId !== undefined && { instanceId }),
      ...(onerror && { onerror }),
    }),
    async close() {
      await redis.destroy();
    },
  };
}

/** What to do about a refused epoch record, by Redis's reason: out of memory, a replica, an ACL refusal, or anything else. */
function epochFix(reason: string): string {
  if (reason.includes('OOM'))
    return 'Redis is full (maxmemory reached): raise its maxmemory or free memory, then connect again';
  if (reason.includes('READONLY')) return 'this is a replica: connect to a writable primary';
  if (reason.includes('NOPERM')) return ACL_RULE_HINT;
  return 'check that Redis is reachable and accepts writes (a writable primary), then connect again';
}
