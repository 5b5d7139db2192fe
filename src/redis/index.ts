/**
 * `mcp-resolve/redis`: what a fleet of instances shares through Redis. The core never imports
 * this entry; the `redis` package is an optional peer dependency needed only here.
 *
 * @packageDocumentation
 */
export {
  connectRedis,
  DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
  describeRedisTarget,
  describeRedisUrl,
  isSentinelConnection,
} from './connection.js';
export type { RedisConnectOptions, RedisConnection, RedisSentinelTarget, RedisTarget } from './connection.js';
export { connectRedisFleet } from './fleet.js';
export type { RedisFleet, RedisFleetOptions } from './fleet.js';
export {
  claimReplayEpoch,
  createRedisReplayStore,
  DEFAULT_REPLAY_KEY_PREFIX,
  DEFAULT_REPLICA_ACK_TIMEOUT_MS,
} from './replayStore.js';
export type { RedisReplayStoreOptions } from './replayStore.js';
export { createRedisSessionFleet, DEFAULT_SESSION_KEY_PREFIX } from './sessionFleet.js';
export type { RedisSessionFleetOptions } from './sessionFleet.js';
export { createRedisTaskStore, DEFAULT_TASK_KEY_PREFIX, DEFAULT_TASK_STORE_TIMEOUT_MS } from './taskStore.js';
export type { RedisTaskStoreOptions } from './taskStore.js';
