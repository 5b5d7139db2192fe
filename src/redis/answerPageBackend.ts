/**
 * The fleet's answer page backend: each step one Lua script (answerPageScripts.ts), so a page is
 * admitted within the fleet-wide bounds (pages per client, pages, bytes) by whichever instance
 * asks, an answer is stored and its page closed together, and an answer is taken by one instance
 * only. The bounds keep pages from filling Redis: at start the byte budget is checked against
 * Redis's `maxmemory` (at most half of it), so a flood of pages never makes replay, epoch or
 * session writes fail. Every command carries its own deadline; a Redis that does not answer fails
 * the step closed with a `redis_unavailable` error (masked for the client, with a ref).
 */
import type { RedisConnection } from './connection.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, withDeadline } from './connection.js';
import { clusterNodeFor, slotPrefix } from './keys.js';
import { ANSWER, OPEN, READ, TAKE } from './answerPageScripts.js';
import { redisFailure } from './connectRefusal.js';

import { McpResolveError } from '../errors.js';
import type { AnswerPageBackend, AnswerPageLimits, AnswerPageRefusal } from '../pageStore/backend.js';
import { ANSWER_PAGE_OVERHEAD_BYTES, answerPageLimits } from '../pageStore/backend.js';

/** The default prefix of answer page keys. */
export const DEFAULT_ANSWER_PAGE_KEY_PREFIX = 'mcp-resolve:answer-page:';

const BACKEND_API = 'createRedisAnswerPageBackend()';

/**
 * Refuses a page budget over half of Redis's `maxmemory` (the other half stays for replay, epoch,
 * session and task keys); a Redis that does not report it (managed services) gets one warning.
 */
async function checkHeadroom(
  redis: RedisConnection,
  slotKey: string,
  maxHeldBytes: number,
  timeoutMs: number,
  onerror: ((error: Error) => void) | undefined,
): Promise<void> {
  let maxmemory: number;
  try {
    // On a cluster: the primary holding the pages' slot.
    const node = (await withDeadline(clusterNodeFor(redis, slotKey), timeoutMs)) ?? redis;
    const reply = await withDeadline(node.configGet('maxmemory'), timeoutMs);
    maxmemory = Number(reply.maxmemory);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `${BACKEND_API}: could not read maxmemory from Redis (${reason}). Check that it is at least twice maxHeldBytes (${maxHeldBytes}): pages must leave room for replay and session keys.`;
    if (onerror === undefined) console.warn(`mcp-resolve: ${message}`);
    else
      onerror(new McpResolveError('invalid_options', message, { data: { api: BACKEND_API, option: 'maxHeldBytes' } }));
    return;
  }
  if (!Number.isFinite(maxmemory) || maxmemory === 0 || maxHeldBytes * 2 <= maxmemory) return;
  throw new McpResolveError(
    'invalid_options',
    `${BACKEND_API}: maxHeldBytes (${maxHeldBytes}) is more than half of Redis's maxmemory (${maxmemory}), so a flood of pages could leave no room for replay and session keys. Lower maxHeldBytes to at most ${Math.floor(maxmemory / 2)}, or raise maxmemory.`,
    { data: { api: BACKEND_API, option: 'maxHeldBytes' } },
  );
}

/**
 * Creates an {@link AnswerPageBackend} over `redis` (a connection from `connectRedis` or
 * `connectRedisFleet`), with its bounds fleet-wide. Resolves once Redis's `maxmemory` was checked:
 * throws `invalid_options` (option `maxHeldBytes`) when the page budget is more than half of it.
 */
export async function createRedisAnswerPageBackend(
  redis: RedisConnection,
  options: Partial<AnswerPageLimits> & {
    /** Prefix of the keys (one per audience sharing a Redis). @default 'mcp-resolve:answer-page:' */
    readonly keyPrefix?: string;
    /** How long one command may wait for Redis, in ms. @default 2_000 */
    readonly commandTimeoutMs?: number;
    /** Receives each failed command, with the reason, and a `maxmemory` that could not be read at start. */
    readonly onerror?: (error: Error) => void;
  } = {},
): Promise<AnswerPageBackend> {
  const limits = answerPageLimits(BACKEND_API, options);
  const prefix = slotPrefix(options.keyPrefix ?? DEFAULT_ANSWER_PAGE_KEY_PREFIX, BACKEND_API);
  // Every key the scripts touch is under the hash-tagged prefix; this one routes them on a cluster.
  const slotKey = `${prefix}live`;
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  await checkHeadroom(redis, slotKey, limits.maxHeldBytes, timeoutMs, options.onerror);
  const run = async (what: string, script: string, args: readonly string[]): Promise<unknown> => {
    try {
      return await withDeadline(redis.eval(script, { keys: [slotKey], arguments: [prefix, ...args] }), timeoutMs);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const failure = new McpResolveError(
        'redis_unavailable',
        `Answer pages: ${redisFailure(`${what}: ${reason}`)}. Nothing was stored; try again once Redis answers.`,
        { data: { operation: 'answer_page' }, cause: error },
      );
      options.onerror?.(failure);
      throw failure;
    }
  };
  const text = (reply: unknown): string | undefined => (typeof reply === 'string' ? reply : undefined);
  const outcome = <T extends string>(reply: unknown): T | AnswerPageRefusal => {
    if (!Array.isArray(reply)) return reply as T;
    const [limit, max, retryAfterMs] = reply as [AnswerPageRefusal['limit'], string, number];
    return { limit, max: Number(max), retryAfterMs: Number(retryAfterMs) };
  };
  const bounds = [limits.maxPagesPerClient, limits.maxPages, limits.maxHeldBytes].map(String);
  return {
    limits,
    async open({ pageId, record, bindingKey, client, expiresAt }) {
      const at = String(Math.ceil(expiresAt));
      const args = [pageId, record, bindingKey, client, at, ...bounds, String(ANSWER_PAGE_OVERHEAD_BYTES)];
      return outcome<'opened' | 'exists'>(await run('open', OPEN, args));
    },
    async page(pageId) {
      return text(await run('read', READ, ['id', pageId]));
    },
    async pageFor(bindingKey) {
      return text(await run('read', READ, ['binding', bindingKey]));
    },
    async answer(pageId, answer, expiresAt) {
      const args = [pageId, answer, String(Math.ceil(expiresAt)), String(limits.maxHeldBytes)];
      return outcome<'stored' | 'closed'>(await run('answer', ANSWER, args));
    },
    async take(bindingKey) {
      return text(await run('take', TAKE, [bindingKey]));
    },
  };
}
