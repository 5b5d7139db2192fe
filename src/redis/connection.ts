/**
 * Connecting to Redis with the official `redis` package (node-redis): it is maintained by Redis
 * itself, speaks RESP3, ships its own types, supports per-client command timeouts (which the
 * fail-closed replay check relies on), and follows a Sentinel-managed primary (`createSentinel`).
 */
import type * as Redis from 'redis';
import type { RedisClientType, RedisClusterType, RedisSentinelType } from 'redis';

import { McpResolveError } from '../errors.js';
import { MILLISECONDS, positiveInteger } from '../optionChecks.js';
import { loadPeer } from '../peer.js';
import { checkCluster } from './clusterCheck.js';
import { checkEvictionPolicy } from './evictionPolicy.js';

export { withDeadline } from './withDeadline.js';

/** A connected node-redis client as this entry uses it: one server, the primary Sentinel names, or a Redis Cluster. */
export type RedisConnection = RedisClientType | RedisSentinelType | RedisClusterType;

/** Where Redis is: a URL (`redis://host:port`), Sentinel addresses and the name of the monitored primary, or cluster nodes. */
export type RedisTarget = string | RedisSentinelTarget | RedisClusterTarget;

/** A Redis Cluster, found through some of its nodes. */
export interface RedisClusterTarget {
  /** Addresses of cluster nodes, `host:port` each (the client discovers the rest; give at least three). */
  readonly nodes: readonly string[];
}

/** A primary found through Redis Sentinel. */
export interface RedisSentinelTarget {
  /** Sentinel addresses, `host:port` each (three is typical). */
  readonly sentinels: readonly string[];
  /** The name the sentinels monitor the primary under (`sentinel monitor <name> …`). */
  readonly masterName: string;
}

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
}

/** The default command timeout: long enough for a loaded Redis, short enough that a lost one fails a round quickly. */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 2_000;

/** Redacts the password of a Redis URL for messages. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.href;
  } catch {
    return JSON.stringify(url);
  }
}

/** An `error` event as an Error: node-redis clients emit errors, a sentinel's pass-through emits `{ error }` events. */
function errorOf(event: unknown): Error {
  if (event instanceof Error) return event;
  if (typeof event === 'object' && event !== null && 'error' in event && event.error instanceof Error)
    return event.error;
  return new Error(`Redis reported: ${String(event)}`);
}

/** Describes a target for messages (passwords redacted). */
export function describeRedisTarget(target: RedisTarget): string {
  if (typeof target === 'string') return describeRedisUrl(target);
  if ('nodes' in target) return `Redis Cluster through ${target.nodes.join(', ')}`;
  return `master ${JSON.stringify(target.masterName)} through sentinels ${target.sentinels.join(', ')}`;
}

/** Parses `host:port` addresses (`option` names them in messages); throws `invalid_options` naming a bad one. */
function hostPorts(addresses: readonly string[], option: string): { host: string; port: number }[] {
  return addresses.map((address) => {
    const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(address);
    const port = Number(match?.[2]);
    if (match?.[1] === undefined || !(port > 0 && port < 65_536)) {
      throw new McpResolveError(
        'invalid_options',
        `connectRedis(): ${option === 'nodes' ? 'cluster node' : 'sentinel'} address ${JSON.stringify(address)} is not host:port.`,
        { data: { api: 'connectRedis()', option } },
      );
    }
    return { host: match[1], port };
  });
}

/** Parses a Sentinel target's addresses; throws `invalid_options` when it names no sentinel or no master. */
function sentinelNodes(target: RedisSentinelTarget): { host: string; port: number }[] {
  if (target.sentinels.length === 0 || target.masterName === '') {
    throw new McpResolveError(
      'invalid_options',
      `connectRedis(): a Sentinel target needs at least one sentinel address and a master name (got ${describeRedisTarget(target)}).`,
      { data: { api: 'connectRedis()', option: target.sentinels.length === 0 ? 'sentinels' : 'masterName' } },
    );
  }
  return hostPorts(target.sentinels, 'sentinels');
}

/** An unconnected client for `target`: commands never queue offline and each has a deadline. */
function createConnection(
  redis: typeof Redis,
  target: RedisTarget,
  commandTimeoutMs: number,
  connectTimeout: number,
): RedisConnection {
  const socket = { connectTimeout, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1_000) };
  const commandOptions = { timeout: commandTimeoutMs };
  if (typeof target === 'string')
    return redis.createClient({ url: target, disableOfflineQueue: true, commandOptions, socket });
  if ('nodes' in target) {
    if (target.nodes.length === 0) {
      throw new McpResolveError(
        'invalid_options',
        'connectRedis(): a cluster target needs at least one node address.',
        {
          data: { api: 'connectRedis()', option: 'nodes' },
        },
      );
    }
    return redis.createCluster({
      rootNodes: hostPorts(target.nodes, 'nodes').map((node) => ({ socket: { ...node, connectTimeout } })),
      defaults: { disableOfflineQueue: true, socket },
      commandOptions,
      // A primary that stopped answering is looked up again after 1 s, so its replica takes over soon.
      topologyRefreshOnReconnectionAttemptStrategy: 1_000,
    });
  }
  return redis.createSentinel({
    name: target.masterName,
    sentinelRootNodes: sentinelNodes(target),
    commandOptions,
    nodeClientOptions: { disableOfflineQueue: true, socket },
    sentinelClientOptions: { socket },
    scanInterval: 1_000,
    passthroughClientErrorEvents: true,
  });
}

/**
 * Connects to `target` (a URL, Sentinel addresses and a master name, or Redis Cluster nodes); throws
 * {@link McpResolveError} (`redis_unavailable`) naming the target when Redis cannot be reached or
 * no sentinel knows the master, or (`invalid_usage`) naming `npm install redis` when the optional
 * peer `redis` is not installed. Commands never wait in an offline queue: while Redis is away they
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
  const client = createConnection(redis, target, commandTimeoutMs, connectTimeout);
  let firstError: Error | undefined;
  let connected = false;
  client.on('error', (event: unknown) => {
    const error = errorOf(event);
    firstError ??= error;
    if (connected) options.onerror?.(error);
  });
  const connecting = client.connect();
  const timeout = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => reject(firstError ?? new Error('connect timeout')), connectTimeout);
    timer.unref?.();
    void connecting.finally(() => clearTimeout(timer)).catch(() => {});
  });
  try {
    await Promise.race([connecting, timeout]);
    connected = true;
  } catch (error) {
    await Promise.resolve(client.destroy()).catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    const fix =
      typeof target === 'string'
        ? 'Start redis-server or fix the URL (--redis / REDIS_URL)'
        : 'nodes' in target
          ? 'Start the cluster or fix the node addresses (--cluster)'
          : 'Start the sentinels or fix their addresses and the master name (--sentinels / --master-name)';
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
