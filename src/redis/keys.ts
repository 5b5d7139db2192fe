/**
 * Keys and connections on a Redis Cluster: every key one store writes starts with its prefix in a
 * hash tag (`{mcp-resolve:sessions:}record:…`), so a Lua script or multi-key command of that store
 * touches one slot; and a command that must run on the node holding a key (`WAIT` after a write,
 * `PUBSUB SHARDNUMSUB`, `CONFIG GET`) runs on that node's connection. On one server or a Sentinel
 * primary the same keys are used, and the connection is the one given.
 */
import type { RedisClientType } from 'redis';

import { McpResolveError } from '../errors.js';
import type { RedisConnection } from './connection.js';
import { isClusterConnection } from './connection.js';

/**
 * The prefix of every key of one store, hash-tagged: `{<prefix>}`. Throws `invalid_options`
 * naming `keyPrefix` (and `api`) when it is empty: an empty tag would spread a store's keys over slots.
 */
export function slotPrefix(prefix: string, api: string): string {
  if (prefix === '') {
    throw new McpResolveError(
      'invalid_options',
      `${api}: keyPrefix must not be empty (it is the hash tag that keeps a store's keys in one Redis Cluster slot).`,
      {
        data: { api, option: 'keyPrefix' },
      },
    );
  }
  return `{${prefix}}`;
}

/** The connection to the primary holding `key` on a cluster; undefined elsewhere (use the connection itself). */
export async function clusterNodeFor(connection: RedisConnection, key: string): Promise<RedisClientType | undefined> {
  if (!isClusterConnection(connection)) return undefined;
  return connection.getNodeClientForKey(key);
}
