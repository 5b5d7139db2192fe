/**
 * The fleet's answer page backend: one Redis key per page, answer and binding, each with an absolute
 * expiry (`SET … PXAT`, `NX` where the store needs "only once"), read with `GET` and taken with
 * `GETDEL` (one instance gets an answer, however many ask at once). Every command carries its own
 * deadline; a Redis that does not answer fails the operation closed (the page says to try again).
 */
import type { RedisConnection } from './connection.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, withDeadline } from './connection.js';

import { ToolError } from '../errors.js';
import type { AnswerPageBackend } from '../answerPage/backend.js';

/** Options of {@link createRedisAnswerPageBackend}. */
export interface RedisAnswerPageBackendOptions {
  /** Prefix of the keys (one per audience sharing a Redis). @default 'mcp-resolve:answer-page:' */
  readonly keyPrefix?: string;
  /** How long one command may wait for Redis, in ms. @default 2_000 */
  readonly commandTimeoutMs?: number;
  /** Receives each failed command, with the reason. */
  readonly onerror?: (error: Error) => void;
}

/** The default prefix of answer page keys. */
export const DEFAULT_ANSWER_PAGE_KEY_PREFIX = 'mcp-resolve:answer-page:';

/**
 * Creates an {@link AnswerPageBackend} over `redis` (a connection from `connectRedis` or
 * `connectRedisFleet`). Size Redis's `maxmemory` for the pages of one TTL of traffic, with the
 * `noeviction` policy the fleet already requires: an evicted answer is a question asked again.
 */
export function createRedisAnswerPageBackend(
  redis: RedisConnection,
  options: RedisAnswerPageBackendOptions = {},
): AnswerPageBackend {
  const prefix = options.keyPrefix ?? DEFAULT_ANSWER_PAGE_KEY_PREFIX;
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const run = async <T>(what: string, operation: () => Promise<T>): Promise<T> => {
    try {
      return await withDeadline(operation(), timeoutMs);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const failure = new ToolError(
        `Answer pages: Redis did not answer (${what}: ${reason}). Nothing was stored; try again once Redis answers.`,
        { cause: error },
      );
      options.onerror?.(failure);
      throw failure;
    }
  };
  const text = (reply: unknown): string | undefined => (typeof reply === 'string' ? reply : undefined);
  return {
    async set(key, value, expiresAt, onlyIfAbsent) {
      const at = Math.ceil(expiresAt);
      const reply = await run('SET', () =>
        redis.set(prefix + key, value, {
          expiration: { type: 'PXAT', value: at },
          ...(onlyIfAbsent && { condition: 'NX' as const }),
        }),
      );
      return reply === 'OK';
    },
    async get(key) {
      return text(await run('GET', () => redis.get(prefix + key)));
    },
    async take(key) {
      return text(await run('GETDEL', () => redis.getDel(prefix + key)));
    },
    async delete(...keys) {
      if (keys.length === 0) return;
      await run('DEL', () => redis.del(keys.map((key) => prefix + key)));
    },
  };
}
