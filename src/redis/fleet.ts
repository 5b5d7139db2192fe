/**
 * One call that makes a server instance a fleet member: a Redis connection, the fleet-wide
 * replay store, and the shared legacy sessions.
 */
import type { LegacySessionFleet } from '../hosting/sessionFleet.js';
import type { ReplayStore } from '../state/replay.js';
import type { RedisConnectOptions, RedisConnection } from './connection.js';
import { connectRedis } from './connection.js';
import { createRedisReplayStore } from './replayStore.js';
import { createRedisSessionFleet } from './sessionFleet.js';

/** Options of {@link connectRedisFleet}. */
export interface RedisFleetOptions extends RedisConnectOptions {
  /** The Redis URL, e.g. `redis://127.0.0.1:6379`. */
  readonly url: string;
  /** This instance's id (default: a random UUID); shown in the `Mcp-Resolve-Instance` header. */
  readonly instanceId?: string;
  /** Prefix of every key and channel (default `mcp-resolve:`); one per fleet sharing a Redis. */
  readonly keyPrefix?: string;
}

/** A connected fleet member. */
export interface RedisFleet {
  /** Pass as `sealing.replayGuard`: single use across every instance and restart. */
  readonly replayStore: ReplayStore;
  /** Pass as `sessionFleet` to `serveHttp` / `createDualEraHandler`: legacy sessions any instance serves. */
  readonly sessions: LegacySessionFleet;
  /** The underlying connection. */
  readonly redis: RedisConnection;
  /** Closes the connection (close the HTTP server first). */
  close(): Promise<void>;
}

/**
 * Connects to Redis and returns what a fleet member shares; throws `McpResolveError`
 * (`redis_unavailable`) naming the URL when Redis cannot be reached.
 */
export async function connectRedisFleet(options: RedisFleetOptions): Promise<RedisFleet> {
  const { url, instanceId, keyPrefix = 'mcp-resolve:', ...connect } = options;
  const redis = await connectRedis(url, connect);
  const onerror = connect.onerror;
  const commandTimeoutMs = connect.commandTimeoutMs;
  const timeout = commandTimeoutMs === undefined ? {} : { commandTimeoutMs };
  return {
    redis,
    replayStore: createRedisReplayStore(redis, {
      keyPrefix: `${keyPrefix}replay:`,
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
      redis.destroy();
    },
  };
}
