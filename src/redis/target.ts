/** Where Redis is (a URL, a Sentinel-managed primary, or a Redis Cluster), parsed and described for messages. */
import { McpResolveError } from '../errors.js';

/** Where Redis is: a URL (`redis://host:port`, `rediss://` for TLS), Sentinel addresses and the name of the monitored primary, or cluster nodes. */
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
  /** The sentinels' own ACL user, when they require a login (the primary's is the option `username`). */
  readonly username?: string;
  /** The password of the sentinels' ACL user (or their `requirepass`). */
  readonly password?: string;
}

/** A `host:port` address. */
export interface HostPort {
  readonly host: string;
  readonly port: number;
}

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

/** Describes a target for messages (passwords redacted). */
export function describeRedisTarget(target: RedisTarget): string {
  if (typeof target === 'string') return describeRedisUrl(target);
  if ('nodes' in target) return `Redis Cluster through ${target.nodes.join(', ')}`;
  return `master ${JSON.stringify(target.masterName)} through sentinels ${target.sentinels.join(', ')}`;
}

/** Parses `host:port` addresses (`option` names them in messages); throws `invalid_options` naming a bad one. */
export function hostPorts(addresses: readonly string[], option: 'nodes' | 'sentinels'): HostPort[] {
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
export function sentinelNodes(target: RedisSentinelTarget): HostPort[] {
  if (target.sentinels.length === 0 || target.masterName === '') {
    throw new McpResolveError(
      'invalid_options',
      `connectRedis(): a Sentinel target needs at least one sentinel address and a master name (got ${describeRedisTarget(target)}).`,
      { data: { api: 'connectRedis()', option: target.sentinels.length === 0 ? 'sentinels' : 'masterName' } },
    );
  }
  return hostPorts(target.sentinels, 'sentinels');
}

/** The addresses a target names first: the URL's host and port, the sentinels, or the cluster nodes given. */
export function targetAddresses(target: RedisTarget): HostPort[] {
  if (typeof target !== 'string') return 'nodes' in target ? hostPorts(target.nodes, 'nodes') : sentinelNodes(target);
  try {
    const url = new URL(target);
    return [{ host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port === '' ? 6379 : Number(url.port) }];
  } catch {
    return [];
  }
}
