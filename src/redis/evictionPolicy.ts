/** `checkEvictionPolicy`: refusing (or warning about) a Redis that may evict the library's keys. */
import type { RedisClientType, RedisSentinelType } from 'redis';

import { McpResolveError } from '../errors.js';
import { withDeadline } from './withDeadline.js';

/** The one `maxmemory-policy` under which Redis never drops a key the library wrote. */
const SAFE_POLICY = 'noeviction';

/** The fix the eviction-policy messages name. */
const POLICY_FIX =
  'Set maxmemory-policy noeviction on that Redis (CONFIG SET maxmemory-policy noeviction, and in redis.conf so a restart keeps it), or give mcp-resolve a Redis of its own with noeviction';

/**
 * Reads the `maxmemory-policy` of the Redis at `where` (as messages name it) at connect. Any
 * policy but `noeviction` lets Redis drop keys with an expiry (all replay keys have one) when
 * memory runs short, and an evicted replay key accepts its token once more: refuse to start, or warn once when `allowEvictingRedis` is set.
 * A Redis that does not answer `CONFIG GET` (renamed, or forbidden to the ACL user as on managed
 * services) gets one warning naming the setting to check (and, when the ACL forbids it, the grant).
 */
export async function checkEvictionPolicy(
  client: RedisClientType | RedisSentinelType,
  where: string,
  options: { readonly onerror?: (error: Error) => void; readonly allowEvictingRedis?: boolean },
  api: string,
  timeoutMs: number,
): Promise<void> {
  const warn = (message: string): void => {
    const warning = new McpResolveError('invalid_options', message, {
      data: { api, option: 'allowEvictingRedis' },
    });
    if (options.onerror === undefined) console.warn(`mcp-resolve: ${message}`);
    else options.onerror(warning);
  };
  let policy: string | undefined;
  try {
    const reply = await withDeadline(client.configGet('maxmemory-policy'), timeoutMs);
    policy = reply['maxmemory-policy'];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    warn(
      /\bNOPERM\b/.test(reason)
        ? `${api}: the ACL user may not run CONFIG GET on Redis at ${where} (${reason}), so its maxmemory-policy is not checked. Check in your provider's settings that it is noeviction (under any other policy Redis may evict replay keys, and an evicted replay key lets its token be accepted again), or grant the user +config|get.`
        : `${api}: could not read maxmemory-policy from Redis at ${where} (${reason}). Check that it is noeviction: under any other policy Redis may evict replay keys, and an evicted replay key lets its token be accepted again.`,
    );
    return;
  }
  if (policy === undefined) {
    warn(
      `${api}: Redis at ${where} did not report maxmemory-policy. Check that it is noeviction: under any other policy Redis may evict replay keys, and an evicted replay key lets its token be accepted again.`,
    );
    return;
  }
  if (policy === SAFE_POLICY) return;
  if (options.allowEvictingRedis === true) {
    warn(
      `WARNING ${api}: Redis at ${where} may evict keys (maxmemory-policy ${policy}) and allowEvictingRedis is set: under memory pressure an evicted replay key lets a used token be accepted again (a completed call's final round runs twice). ${POLICY_FIX}.`,
    );
    return;
  }
  throw new McpResolveError(
    'invalid_options',
    `${api}: Redis at ${where} may evict keys under memory pressure, and an evicted replay key lets a used token be accepted again (got maxmemory-policy ${policy}). ${POLICY_FIX}; allowEvictingRedis: true starts anyway, with a warning.`,
    { data: { api, option: 'allowEvictingRedis' } },
  );
}
