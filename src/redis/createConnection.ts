/** `createConnection`: the unconnected node-redis client for a target, with TLS and the ACL user on every connection it opens. */
import type * as Redis from 'redis';
import type { RedisClientType, RedisClusterType, RedisSentinelType } from 'redis';

import { McpResolveError } from '../errors.js';
import type { RedisTarget } from './target.js';
import { hostPorts, sentinelNodes } from './target.js';
import type { RedisAccess } from './transport.js';
import { credentials, tlsSocket, urlFor } from './transport.js';

/** How the client connects: deadlines, TLS and the ACL user. */
export interface ConnectionSettings {
  readonly commandTimeoutMs: number;
  readonly connectTimeout: number;
  readonly access: RedisAccess;
}

/**
 * An unconnected client for `target`: commands never queue offline and each has a deadline. TLS
 * and the ACL user apply to the server, to every node of a cluster (found or given), and to the
 * Sentinel-managed primary and replicas; the sentinels get the same TLS and the target's own login.
 * Messages name `api`.
 */
export function createConnection(
  redis: typeof Redis,
  target: RedisTarget,
  settings: ConnectionSettings,
  api: string,
): RedisClientType | RedisSentinelType | RedisClusterType {
  const { commandTimeoutMs, connectTimeout, access } = settings;
  const tls = tlsSocket(access, api);
  const socket = { connectTimeout, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1_000) };
  const commandOptions = { timeout: commandTimeoutMs };
  const login = credentials(access);
  if (typeof target === 'string') {
    return redis.createClient({
      url: urlFor(target, access, api),
      ...login,
      disableOfflineQueue: true,
      commandOptions,
      socket: { ...socket, ...tls },
    });
  }
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
      rootNodes: hostPorts(target.nodes, 'nodes').map((node) => ({ socket: { ...node, connectTimeout, ...tls } })),
      defaults: { disableOfflineQueue: true, ...login, socket: { ...socket, ...tls } },
      commandOptions,
      // A primary that stopped answering is looked up again after 1 s, so its replica takes over soon.
      topologyRefreshOnReconnectionAttemptStrategy: 1_000,
    });
  }
  return redis.createSentinel({
    name: target.masterName,
    sentinelRootNodes: sentinelNodes(target),
    commandOptions,
    nodeClientOptions: { disableOfflineQueue: true, ...login, socket: { ...socket, ...tls } },
    sentinelClientOptions: { ...credentials(target), socket: { ...socket, ...tls } },
    scanInterval: 1_000,
    passthroughClientErrorEvents: true,
  });
}
