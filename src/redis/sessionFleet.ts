/**
 * Legacy sessions shared through Redis: one key per session record (its expiry is the idle
 * lifetime, restarted by every request), one key naming the instance that holds the session's
 * GET stream, one hash of the session's pushes waiting for an answer (who waits, so an answer is
 * relayed only to the instance that asked), and pub/sub for relays: a channel per instance plus
 * one for every instance. Pub/sub fits: a relay is only useful to a live instance, so nothing
 * needs to be kept for later, and an answer's bytes pass through Redis without being stored.
 *
 * The limits (count, bytes, sessions per client) are kept by Lua scripts next to the records: a
 * sorted set of live sessions and one per client, scored by expiry, a hash of each session's
 * size and client, and a byte total. Every save first releases what expired sessions held.
 */
import type {
  FleetMessage,
  LegacySessionFleet,
  PendingPush,
  SessionRefusal,
  SharedSessionRecord,
} from '../hosting/sessionFleet.js';
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

/** Shared by the scripts: the clock, and forgetting a session's share of the limits. ARGV[1] is the key prefix, ARGV[2] the session id. */
const ACCOUNTING = `
local prefix, id = ARGV[1], ARGV[2]
local live, info, total = prefix .. 'live', prefix .. 'live-info', prefix .. 'live-bytes'
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function forget(session)
  local entry = redis.call('HGET', info, session)
  if entry then
    local space = string.find(entry, ' ', 1, true)
    redis.call('DECRBY', total, tonumber(string.sub(entry, 1, space - 1)))
    local client = string.sub(entry, space + 1)
    if client ~= '' then redis.call('ZREM', prefix .. 'client:' .. client, session) end
    redis.call('HDEL', info, session)
  end
  redis.call('ZREM', live, session)
end
local function restart(session, now, ttl)
  local score = now + tonumber(ttl)
  redis.call('ZADD', live, 'XX', score, session)
  local entry = redis.call('HGET', info, session)
  if entry then
    local client = string.sub(entry, string.find(entry, ' ', 1, true) + 1)
    if client ~= '' then redis.call('ZADD', prefix .. 'client:' .. client, 'XX', score, session) end
  end
end
`;

/**
 * Saves a record unless a limit would be passed. KEYS[1]: the record. ARGV: prefix, id, record
 * JSON, ttl ms or 'inf', '1' when limited, max sessions, budget bytes, max per client, client.
 * Returns nil when saved, else {limit, ms until the first counted session expires or -1}.
 */
const SAVE = `${ACCOUNTING}
local json, ttl, client = ARGV[3], ARGV[4], ARGV[9]
local now = now_ms()
forget(id)
if ARGV[5] == '1' then
  local expired = redis.call('ZRANGEBYSCORE', live, '-inf', now, 'LIMIT', 0, 1000)
  for _, session in ipairs(expired) do forget(session) end
  local function first(key)
    local head = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    local score = tonumber(head[2] or '')
    if score == nil or score == math.huge then return -1 end
    return math.max(0, score - now)
  end
  local mine = prefix .. 'client:' .. client
  if redis.call('ZCARD', mine) >= tonumber(ARGV[8]) then return {'maxLegacySessionsPerClient', first(mine)} end
  if redis.call('ZCARD', live) >= tonumber(ARGV[6]) then return {'maxLegacySessions', first(live)} end
  local held = tonumber(redis.call('GET', total) or '0')
  if held + #json > tonumber(ARGV[7]) then return {'legacySessionBudgetBytes', first(live)} end
end
local score = '+inf'
if ttl == 'inf' then
  redis.call('SET', KEYS[1], json)
else
  redis.call('SET', KEYS[1], json, 'PX', ttl)
  score = now + tonumber(ttl)
end
redis.call('ZADD', live, score, id)
redis.call('HSET', info, id, #json .. ' ' .. client)
redis.call('INCRBY', total, #json)
if client ~= '' then redis.call('ZADD', prefix .. 'client:' .. client, score, id) end
return false
`;

/** Reads (ARGV[4] = '1') and/or restarts the idle clock (ARGV[3] = ttl ms, or 'inf': unchanged) of KEYS[1]. */
const LOAD = `${ACCOUNTING}
local text = false
if ARGV[4] == '1' then
  text = redis.call('GET', KEYS[1])
  if not text then return false end
end
if ARGV[3] ~= 'inf' and redis.call('PEXPIRE', KEYS[1], ARGV[3]) == 1 then restart(id, now_ms(), ARGV[3]) end
return text
`;

/** Forgets a session: KEYS[1] its record, KEYS[2] its stream holder. */
const REMOVE = `${ACCOUNTING}
redis.call('DEL', KEYS[1], KEYS[2])
forget(id)
return false
`;

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

/** A lifetime as the scripts take it: whole milliseconds, or 'inf'. */
function ttlArgument(ttlMs: number): string {
  return Number.isFinite(ttlMs) ? String(Math.ceil(ttlMs)) : 'inf';
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
    async save(sessionId, record, ttlMs, admission) {
      const reply = await timed(
        redis.eval(SAVE, {
          keys: [recordKey(sessionId)],
          arguments: [
            prefix,
            sessionId,
            JSON.stringify(record),
            ttlArgument(ttlMs),
            admission === undefined ? '0' : '1',
            String(admission?.maxSessions ?? 0),
            String(admission?.budgetBytes ?? 0),
            String(admission?.maxPerClient ?? 0),
            admission?.client ?? '',
          ],
        }),
      );
      if (!Array.isArray(reply)) return undefined;
      const [limit, retryAfterMs] = reply as [SessionRefusal['limit'], number];
      return { limit, retryAfterMs: retryAfterMs < 0 ? Infinity : Number(retryAfterMs) };
    },
    async load(sessionId, ttlMs) {
      const text = await timed(
        redis.eval(LOAD, {
          keys: [recordKey(sessionId)],
          arguments: [prefix, sessionId, ttlArgument(ttlMs), '1'],
        }),
      );
      return typeof text === 'string' ? (JSON.parse(text) as SharedSessionRecord) : undefined;
    },
    async touch(sessionId, ttlMs) {
      if (!Number.isFinite(ttlMs)) return;
      await timed(
        redis.eval(LOAD, { keys: [recordKey(sessionId)], arguments: [prefix, sessionId, ttlArgument(ttlMs), '0'] }),
      );
    },
    async remove(sessionId) {
      await timed(
        redis.eval(REMOVE, { keys: [recordKey(sessionId), holderKey(sessionId)], arguments: [prefix, sessionId] }),
      );
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
