/**
 * Legacy sessions shared through Redis: one key per session record (its expiry is the idle
 * lifetime, restarted by every request), one key naming the instance that holds the session's
 * GET stream, one hash of the session's pushes waiting for an answer (who waits, so an answer is
 * relayed only to the instance that asked), and pub/sub for relays: a channel per instance plus
 * one for every instance. Pub/sub fits: a relay is only useful to a live instance, so nothing
 * needs to be kept for later, and an answer's bytes pass through Redis without being stored.
 */
import type { FleetMessage, LegacySessionFleet, PendingPush, SharedSessionRecord } from '../hosting/sessionFleet.js';
import type { RedisConnection } from './connection.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, isSentinelConnection, withDeadline } from './connection.js';

/** Options of {@link createRedisSessionFleet}. */
export interface RedisSessionFleetOptions {
  /** This instance's id (default: a random UUID); shown in the `Mcp-Resolve-Instance` header. */
  readonly instanceId?: string;
  /** Prefix of the keys and channels (default `mcp-resolve:sessions:`). */
  readonly keyPrefix?: string;
  /** How long one operation may wait for Redis, in ms (default 2,000); then the request answers 503. */
  readonly commandTimeoutMs?: number;
  /** Receives relayed messages that could not be parsed. */
  readonly onerror?: (error: Error) => void;
}

/** The default prefix of session keys and relay channels. */
export const DEFAULT_SESSION_KEY_PREFIX = 'mcp-resolve:sessions:';

/**
 * Takes a waiting push (KEYS: the session record, the session's push hash; ARGV: the push id): its
 * record, once, and only while the session exists; `false` otherwise.
 */
const TAKE_PUSH = `
local push = redis.call('HGET', KEYS[2], ARGV[1])
if not push then return false end
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
return push
`;

/**
 * The connection relays are received on: a second connection to the server, or with Sentinel the
 * sentinel's own pub/sub connection, which follows the primary across a failover.
 */
async function pubSubOf(
  redis: RedisConnection,
  onerror: ((error: Error) => void) | undefined,
): Promise<RedisConnection> {
  if (isSentinelConnection(redis)) return redis;
  const subscriber = redis.duplicate();
  subscriber.on('error', (error: Error) => onerror?.(error));
  await subscriber.connect();
  return subscriber;
}

/** Creates the Redis-backed {@link LegacySessionFleet} of one instance; `subscribe` opens a second connection for pub/sub. */
export function createRedisSessionFleet(
  redis: RedisConnection,
  options: RedisSessionFleetOptions = {},
): LegacySessionFleet {
  const instanceId = options.instanceId ?? crypto.randomUUID();
  const prefix = options.keyPrefix ?? DEFAULT_SESSION_KEY_PREFIX;
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const timed = <T>(operation: Promise<T>): Promise<T> => withDeadline(operation, timeoutMs);
  const recordKey = (sessionId: string) => `${prefix}record:${sessionId}`;
  const holderKey = (sessionId: string) => `${prefix}stream:${sessionId}`;
  const pushesKey = (sessionId: string) => `${prefix}pushes:${sessionId}`;
  const channel = (id: string) => `${prefix}relay:${id}`;
  const everyone = `${prefix}relay-all`;
  const expiry = (ttlMs: number) =>
    Number.isFinite(ttlMs) ? { expiration: { type: 'PX', value: Math.ceil(ttlMs) } as const } : {};

  return {
    instanceId,
    async save(sessionId, record, ttlMs) {
      await timed(redis.set(recordKey(sessionId), JSON.stringify(record), expiry(ttlMs)));
    },
    async load(sessionId, ttlMs) {
      const key = recordKey(sessionId);
      const text = await timed(
        Number.isFinite(ttlMs) ? redis.getEx(key, { type: 'PX', value: Math.ceil(ttlMs) }) : redis.get(key),
      );
      return text === null ? undefined : (JSON.parse(text) as SharedSessionRecord);
    },
    async touch(sessionId, ttlMs) {
      if (Number.isFinite(ttlMs)) await timed(redis.pExpire(recordKey(sessionId), Math.ceil(ttlMs)));
    },
    async remove(sessionId) {
      await timed(redis.del([recordKey(sessionId), holderKey(sessionId)]));
    },
    async claimStream(sessionId, ttlMs) {
      await timed(redis.set(holderKey(sessionId), instanceId, expiry(ttlMs)));
    },
    async streamHolder(sessionId) {
      return (await timed(redis.get(holderKey(sessionId)))) ?? undefined;
    },
    async awaitAnswer(sessionId, pushId, push, ttlMs) {
      const key = pushesKey(sessionId);
      await timed(redis.hSet(key, pushId, JSON.stringify({ method: push.method })));
      if (Number.isFinite(ttlMs)) await timed(redis.pExpire(key, Math.ceil(ttlMs)));
    },
    async takeAnswer(sessionId, pushId) {
      const reply = await timed(
        redis.eval(TAKE_PUSH, { keys: [recordKey(sessionId), pushesKey(sessionId)], arguments: [pushId] }),
      );
      if (typeof reply !== 'string') return undefined;
      const { method } = JSON.parse(reply) as PendingPush;
      return { method };
    },
    async send(target, message) {
      // PUBLISH counts the subscribers it reached: none means the instance is down or re-subscribing.
      const receivers = await timed(redis.publish(channel(target), JSON.stringify(message)));
      if (receivers === 0) throw new Error(`no instance ${JSON.stringify(target)} is listening`);
    },
    async broadcast(message) {
      await timed(redis.publish(everyone, JSON.stringify(message)));
    },
    async subscribe(onmessage) {
      const subscriber = await timed(pubSubOf(redis, options.onerror));
      const listener = (text: string | Buffer) => {
        let message: FleetMessage;
        try {
          message = JSON.parse(text.toString()) as FleetMessage;
        } catch (error) {
          options.onerror?.(new Error(`Dropped a relayed message that is not JSON: ${String(error)}`));
          return;
        }
        onmessage(message);
      };
      const channels = [channel(instanceId), everyone];
      await timed(subscriber.subscribe(channels, listener));
      return async () => {
        await subscriber.unsubscribe(channels, listener).catch(() => undefined);
        if (subscriber !== redis) await Promise.resolve(subscriber.destroy()).catch(() => undefined);
      };
    },
    async listening(target = instanceId) {
      const name = channel(target);
      const counts = await timed(redis.pubSubNumSub(name));
      return Number(counts[name] ?? 0) > 0;
    },
  };
}
