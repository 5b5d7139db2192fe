/**
 * The fleet-wide store of refused answers (`answerAttempts`): one Redis counter per key, counted
 * and given its expiry in one script (`INCR`, then `PEXPIRE` when it opens a window), so every
 * instance counts the same answers and a window ends on every instance at once. A Redis that
 * cannot answer fails the answer closed: it is never read uncounted.
 */
import type { AttemptStore } from '../state/attemptStore.js';

import { McpResolveError } from '../errors.js';
import type { RedisConnection } from './connection.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, withDeadline } from './connection.js';
import { slotPrefix } from './keys.js';

/** The default prefix of counter keys. */
export const DEFAULT_ATTEMPT_KEY_PREFIX = 'mcp-resolve:attempts:';

/** KEYS[1] the counter; ARGV[1] the window in ms. Returns the count and the ms left in its window. */
const COUNT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return { count, left }
`;

/** KEYS[1] the counter: one answer taken back; the key goes when none is left. */
const UNCOUNT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('DECR', KEYS[1]) <= 0 then redis.call('DEL', KEYS[1]) end
return 1
`;

/**
 * Creates an {@link AttemptStore} over `redis`. When Redis cannot answer in time or answers with an
 * error, `count` and `uncount` reject with {@link McpResolveError} (`redis_unavailable`), and the
 * call that carried the answer fails: an answer is never read without being counted.
 */
export function createRedisAttemptStore(
  redis: RedisConnection,
  options: {
    /** Prefix of the counter keys; use one per audience sharing a Redis. @default 'mcp-resolve:attempts:' */
    readonly keyPrefix?: string;
    /** How long one count may wait for Redis, in ms (default 2,000); then the answer fails closed. */
    readonly commandTimeoutMs?: number;
    /** Receives each failed count with the reason. */
    readonly onerror?: (error: Error) => void;
  } = {},
): AttemptStore {
  const prefix = slotPrefix(options.keyPrefix ?? DEFAULT_ATTEMPT_KEY_PREFIX, 'createRedisAttemptStore()');
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const run = async (script: string, key: string, args: string[]): Promise<unknown> => {
    try {
      return await withDeadline(redis.eval(script, { keys: [prefix + key], arguments: args }), timeoutMs);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const failure = new McpResolveError(
        'redis_unavailable',
        `Answer attempts: Redis did not count the answer (${reason}). The answer is refused unread; answer again once Redis answers.`,
        { data: { operation: 'attempt_count' }, cause: error },
      );
      options.onerror?.(failure);
      throw failure;
    }
  };
  return {
    async count(key, windowMs) {
      const reply = await run(COUNT, key, [String(Math.ceil(windowMs))]);
      const [count, left] = Array.isArray(reply) ? reply : [];
      return { count: Number(count), retryMs: Number(left) };
    },
    async uncount(key) {
      await run(UNCOUNT, key, []);
    },
  };
}
