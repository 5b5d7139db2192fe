/**
 * Legacy sessions shared through Redis: one key per session record (its expiry is the idle
 * lifetime, restarted by every request), one key naming the instance that holds the session's
 * GET stream, one hash of the session's pushes waiting for an answer (who waits, so an answer is
 * relayed only to the instance that asked), and pub/sub for relays (sessionRelay.ts). Every key
 * starts with the hash-tagged prefix (`{mcp-resolve:sessions:}`), so each script touches one slot
 * of a Redis Cluster.
 *
 * The limits (count, bytes, sessions per client) are kept by Lua scripts next to the records: a
 * sorted set of live sessions and one per client, scored by expiry, a hash of each session's
 * size and client, and a byte total (sessionScripts.ts). Every save first releases what expired
 * sessions held.
 */
import type {
  LegacySessionFleet,
  PendingPush,
  SessionRefusal,
  SharedSessionRecord,
} from '../hosting/legacy/sessionFleet.js';
import { RETAKE_MS } from '../hosting/legacy/sessionFleet.js';
import { heldBytes } from '../state/heldBytes.js';
import type { RedisConnection } from './connection.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, scriptDeadline, withDeadline } from './connection.js';
import { slotPrefix } from './keys.js';
import { LOAD, REMOVE, SAVE, TAKE_PUSH } from './sessionScripts.js';
import { redisRelay } from './sessionRelay.js';

/** Options of {@link createRedisSessionFleet}. */
export interface RedisSessionFleetOptions {
  /** This instance's id (default: a random UUID); shown in the `Mcp-Resolve-Instance` header. */
  readonly instanceId?: string;
  /** Prefix of the keys and channels. @default 'mcp-resolve:sessions:' */
  readonly keyPrefix?: string;
  /** How long one operation may wait for Redis, in ms (default 2,000); then the request answers 503. */
  readonly commandTimeoutMs?: number;
  /** Receives relayed messages that could not be parsed. */
  readonly onerror?: (error: Error) => void;
}

/** The default prefix of session keys and relay channels. */
export const DEFAULT_SESSION_KEY_PREFIX = 'mcp-resolve:sessions:';

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
  const prefix = slotPrefix(options.keyPrefix ?? DEFAULT_SESSION_KEY_PREFIX, 'createRedisSessionFleet()');
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const timed = <T>(operation: Promise<T>): Promise<T> => withDeadline(operation, timeoutMs);
  const recordKey = (sessionId: string) => `${prefix}record:${sessionId}`;
  const holderKey = (sessionId: string) => `${prefix}stream:${sessionId}`;
  const pushesKey = (sessionId: string) => `${prefix}pushes:${sessionId}`;
  const takenKey = (sessionId: string, pushId: string) => `${prefix}taken:${sessionId}:${pushId}`;
  const expiry = (ttlMs: number) =>
    Number.isFinite(ttlMs) ? { expiration: { type: 'PX', value: Math.ceil(ttlMs) } as const } : {};

  return {
    instanceId,
    async save(sessionId, record, legacySessionIdleMs, admission) {
      const reply = await timed(
        redis.eval(SAVE, {
          keys: [recordKey(sessionId)],
          arguments: [
            prefix,
            sessionId,
            JSON.stringify(record),
            ttlArgument(legacySessionIdleMs),
            admission === undefined ? '0' : '1',
            String(admission?.maxLegacySessions ?? 0),
            String(admission?.legacySessionBudgetHeldBytes ?? 0),
            String(admission?.maxLegacySessionsPerClient ?? 0),
            admission?.client ?? '',
            String(heldBytes(record)),
          ],
        }),
      );
      if (!Array.isArray(reply)) return undefined;
      const [limit, retryAfterMs] = reply as [SessionRefusal['limit'], number];
      return { limit, retryAfterMs: retryAfterMs < 0 ? Infinity : Number(retryAfterMs) };
    },
    async load(sessionId, legacySessionIdleMs) {
      const text = await timed(
        redis.eval(LOAD, {
          keys: [recordKey(sessionId)],
          arguments: [prefix, sessionId, ttlArgument(legacySessionIdleMs), '1'],
        }),
      );
      return typeof text === 'string' ? (JSON.parse(text) as SharedSessionRecord) : undefined;
    },
    async touch(sessionId, legacySessionIdleMs) {
      if (!Number.isFinite(legacySessionIdleMs)) return;
      await timed(
        redis.eval(LOAD, {
          keys: [recordKey(sessionId)],
          arguments: [prefix, sessionId, ttlArgument(legacySessionIdleMs), '0'],
        }),
      );
    },
    async remove(sessionId) {
      await timed(
        redis.eval(REMOVE, { keys: [recordKey(sessionId), holderKey(sessionId)], arguments: [prefix, sessionId] }),
      );
    },
    async claimStream(sessionId, legacySessionIdleMs) {
      await timed(redis.set(holderKey(sessionId), instanceId, expiry(legacySessionIdleMs)));
    },
    async streamHolder(sessionId) {
      return (await timed(redis.get(holderKey(sessionId)))) ?? undefined;
    },
    async awaitAnswer(sessionId, pushId, push, ttlMs) {
      const key = pushesKey(sessionId);
      await timed(redis.hSet(key, pushId, JSON.stringify({ method: push.method })));
      if (Number.isFinite(ttlMs)) await timed(redis.pExpire(key, Math.ceil(ttlMs)));
    },
    async answerAwaited(sessionId, pushId) {
      return (await timed(redis.hExists(pushesKey(sessionId), pushId))) === 1;
    },
    async takeAnswer(sessionId, pushId, take) {
      const reply = await timed(
        // Refused by Redis past its deadline: a take abandoned while Redis was stalled never consumes
        // the record. One Redis ran in time but whose reply came too late did: a named take asked
        // again gets the record again.
        redis.eval(TAKE_PUSH, {
          keys: [recordKey(sessionId), pushesKey(sessionId), takenKey(sessionId, pushId)],
          arguments: [pushId, String(scriptDeadline(timeoutMs)), take ?? '', String(RETAKE_MS)],
        }),
      );
      if (typeof reply !== 'string') return undefined;
      const { method } = JSON.parse(reply) as PendingPush;
      return { method };
    },
    ...redisRelay({
      redis,
      instanceId,
      prefix: options.keyPrefix ?? DEFAULT_SESSION_KEY_PREFIX,
      timed,
      onerror: options.onerror,
    }),
  };
}
