/**
 * `mcp-resolve/redis`: what a fleet of instances shares through Redis. The core never imports
 * this entry; the `redis` package is an optional peer dependency needed only here.
 *
 * @packageDocumentation
 */
export { createRedisAnswerPageBackend } from './answerPageBackend.js';
export { createRedisAttemptStore } from './attemptStore.js';
export { connectRedis } from './connection.js';
export type { RedisConnectOptions, RedisConnection } from './connection.js';
export type { RedisClusterTarget, RedisSentinelTarget, RedisTarget } from './target.js';
export type { RedisTlsOptions } from './transport.js';
export { connectRedisFleet } from './fleet.js';
export type { RedisFleet, RedisFleetOptions } from './fleet.js';
export { claimReplayEpoch, createRedisReplayStore } from './replayStore.js';
export { createRedisSessionFleet } from './sessionFleet.js';
export type { RedisSessionFleetOptions } from './sessionFleet.js';
export { createRedisTaskStore } from './taskStore.js';
