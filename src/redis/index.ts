/**
 * `mcp-resolve/redis`: what a fleet of instances shares through Redis. The core never imports
 * this entry; the `redis` package is an optional peer dependency needed only here.
 */
export { connectRedis, DEFAULT_REDIS_COMMAND_TIMEOUT_MS, describeRedisUrl } from './connection.js';
export type { RedisConnectOptions, RedisConnection } from './connection.js';
export { createRedisReplayStore, DEFAULT_REPLAY_KEY_PREFIX } from './replayStore.js';
export type { RedisReplayStoreOptions } from './replayStore.js';
