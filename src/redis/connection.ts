/**
 * Connecting to Redis with the official `redis` package (node-redis): it is maintained by Redis
 * itself, speaks RESP3, ships its own types, supports per-client command timeouts (which the
 * fail-closed replay check relies on), and follows a Sentinel-managed primary (`createSentinel`).
 */
import type { RedisClientType, RedisClusterType, RedisSentinelType } from 'redis';

import { McpResolveError } from '../errors.js';
import { MILLISECONDS, positiveInteger } from '../optionChecks.js';
import { loadPeer } from '../peer.js';
import { checkCluster } from './clusterCheck.js';
import { accessFix, tlsOnlyFix } from './connectRefusal.js';
import { createConnection } from './createConnection.js';
import { checkEvictionPolicy } from './evictionPolicy.js';
import type { RedisTarget } from './target.js';
import { describeRedisTarget, targetAddresses } from './target.js';
import type { RedisTlsOptions } from './transport.js';

export { scriptDeadline, withDeadline } from './withDeadline.js';

/** A connected node-redis client as this entry uses it: one server, the primary Sentinel names, or a Redis Cluster. */
export type RedisConnection = RedisClientType | RedisSentinelType | RedisClusterType;

/** Whether a connection follows a Sentinel-managed primary. */
export function isSentinelConnection(connection: RedisConnection): connection is RedisSentinelType {
  return 'getMasterNode' in connection;
}

/** Whether a connection is a Redis Cluster client (`createCluster`). */
export function isClusterConnection(connection: RedisConnection): connection is RedisClusterType {
  return 'masters' in connection && 'getNodeClientForKey' in connection;
}

/** Options of {@link connectRedis}. */
export interface RedisConnectOptions {
  /** How long one command may wait for Redis before it fails, in ms. @default 2000 */
  readonly commandTimeoutMs?: number;
  /** How long the first connection may take, in ms (default 5,000). */
  readonly connectTimeoutMs?: number;
  /**
   * Receives connection errors after the first connect (reconnects are automatic), and the
   * warnings of the eviction-policy check at connect (default for those: `console.warn`).
   */
  readonly onerror?: (error: Error) => void;
  /**
   * Start even when Redis may evict keys (its `maxmemory-policy` is not `noeviction`), with one
   * warning: an evicted replay key lets its token be accepted again (default `false`: refuse to start).
   */
  readonly allowEvictingRedis?: boolean;
  /**
   * TLS on every connection (to the server, each cluster node, the Sentinel-managed nodes and the
   * sentinels): `true` trusts Node's bundled CAs, or give the CA and a client certificate. A
   * `rediss://` URL turns it on too. Default: no TLS.
   */
  readonly tls?: true | RedisTlsOptions;
  /** The ACL user to log in as (on a cluster, on every node; with Sentinel, on the primary and replicas). Default: none. */
  readonly username?: string;
  /** The ACL user's password (or the server's `requirepass`); never shown in messages. */
  readonly password?: string;
}

/** The default command timeout: long enough for a loaded Redis, short enough that a lost one fails a round quickly. */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 2_000;

/** An `error` event as an Error: node-redis clients emit errors, a sentinel's pass-through emits `{ error }` events. */
function errorOf(event: unknown): Error {
  if (event instanceof Error) return event;
  if (typeof event === 'object' && event !== null && 'error' in event && event.error instanceof Error)
    return event.error;
  return new Error(`Redis reported: ${String(event)}`);
}

/** The generic fix for a target that cannot be reached, naming the story's flags. */
function reachFix(target: RedisTarget): string {
  if (typeof target === 'string') return 'Start redis-server or fix the URL (--redis / REDIS_URL)';
  return 'nodes' in target
    ? 'Start the cluster or fix the node addresses (--cluster)'
    : 'Start the sentinels or fix their addresses and the master name (--sentinels / --master-name)';
}

/**
 * Connects to `target` (a URL, Sentinel addresses and a master name, or Redis Cluster nodes); throws
 * {@link McpResolveError} (`redis_unavailable`) naming the target when Redis cannot be reached or
 * no sentinel knows the master, or (`invalid_usage`) naming `npm install redis` when the optional
 * peer `redis` is not installed. A refusal by TLS or the ACL (a TLS-only port without `tls`, an
 * untrusted certificate, a missing client certificate, a wrong `username`/`password`) fails at
 * once, naming the option to set. Commands never wait in an offline queue: while Redis is away they
 * fail at once, so nothing hangs on a lost connection. Throws `invalid_options` naming
 * `maxmemory-policy` when Redis may evict keys (anything but `noeviction`), unless
 * `allowEvictingRedis` is set; on a cluster, when any node (primary or replica) may, naming it
 * (and `redis_unavailable` when a slot has no live primary).
 */
export async function connectRedis(target: RedisTarget, options: RedisConnectOptions = {}): Promise<RedisConnection> {
  return openRedis(target, options, 'connectRedis()');
}

/** {@link connectRedis} for `api` (the public function the caller called, as messages name it). */
export async function openRedis(
  target: RedisTarget,
  options: RedisConnectOptions,
  api: string,
): Promise<RedisConnection> {
  const commandTimeoutMs = positiveInteger(
    api,
    'commandTimeoutMs',
    options.commandTimeoutMs,
    DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
    {
      unit: MILLISECONDS,
    },
  );
  const connectTimeout = positiveInteger(api, 'connectTimeoutMs', options.connectTimeoutMs, 5_000, {
    unit: MILLISECONDS,
  });
  // The optional peer `redis` is loaded here, so a missing package names its install line.
  const redis = await loadPeer('redis', api, () => import('redis'));
  const client = createConnection(redis, target, { commandTimeoutMs, connectTimeout, access: options }, api);
  const sentinelLogin = typeof target !== 'string' && 'sentinels' in target;
  let firstError: Error | undefined;
  let connected = false;
  let refuse: (error: Error) => void = () => undefined;
  // TLS and ACL refusals never pass by retrying: the first one ends the connect.
  const refused = new Promise<never>((_, reject) => (refuse = reject));
  // A connection closed at once may be a TLS-only port: asked once, a TLS answer ends the connect too.
  let tlsProbe: Promise<string | undefined> | undefined;
  const probeTls = () => tlsOnlyFix(targetAddresses(target), options, Math.min(connectTimeout, 1_000));
  client.on('error', (event: unknown) => {
    const error = errorOf(event);
    firstError ??= error;
    if (connected) options.onerror?.(error);
    else if (accessFix(error, options, sentinelLogin) !== undefined) refuse(error);
    else if (tlsProbe === undefined && /ECONNRESET|Socket closed unexpectedly/.test(error.message)) {
      tlsProbe = probeTls();
      void tlsProbe.then((fix) => fix !== undefined && refuse(error));
    }
  });
  const connecting = client.connect();
  const timeout = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => reject(firstError ?? new Error('connect timeout')), connectTimeout);
    timer.unref?.();
    void connecting.finally(() => clearTimeout(timer)).catch(() => {});
  });
  try {
    await Promise.race([connecting, timeout, refused]);
    connected = true;
  } catch (error) {
    await Promise.resolve(client.destroy()).catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    // A port that does not speak TLS never answers a TLS client: the connect times out without an error.
    const silentTls = firstError === undefined && options.tls !== undefined;
    const fix =
      accessFix(error, options, sentinelLogin) ??
      (await (tlsProbe ?? probeTls())) ??
      `${reachFix(target)}${silentTls ? ", or, with tls set, connect to Redis's TLS port (tls-port) or remove tls" : ''}`;
    throw new McpResolveError(
      'redis_unavailable',
      `Cannot connect to Redis at ${describeRedisTarget(target)}: ${reason}. ${fix}.`,
      { data: { operation: 'connect', target: describeRedisTarget(target) } },
    );
  }
  try {
    if (isClusterConnection(client)) await checkCluster(client, redis.createClient, options, api, commandTimeoutMs);
    else await checkEvictionPolicy(client, describeRedisTarget(target), options, api, commandTimeoutMs);
  } catch (error) {
    await Promise.resolve(client.destroy()).catch(() => undefined);
    throw error;
  }
  return client;
}
