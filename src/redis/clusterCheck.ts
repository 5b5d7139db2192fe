/**
 * `checkCluster`: refusing, at start, a Redis Cluster the library's guarantees do not hold on: a
 * slot no live primary serves (its keys cannot be written), or a node, primary or replica, that may
 * evict keys (a replica promoted later evicts like any primary).
 */
import type * as RedisModule from 'redis';
import type { RedisClusterType } from 'redis';

import { McpResolveError } from '../errors.js';
import { checkEvictionPolicy } from './evictionPolicy.js';
import type { RedisAccess } from './transport.js';
import { credentials, tlsSocket } from './transport.js';
import { withDeadline } from './withDeadline.js';

/** The slots of a Redis Cluster. */
const SLOTS = 16_384;

/** One line of `CLUSTER NODES`: the node's address, whether it is a primary, whether it failed, and its slot ranges. */
interface ClusterNode {
  readonly address: string;
  readonly primary: boolean;
  readonly failed: boolean;
  readonly slots: readonly (readonly [number, number])[];
}

/** Parses `CLUSTER NODES` (`<id> <host:port@bus> <flags> <primary> … <slots>`); migrating slot entries (`[…]`) are skipped. */
export function parseClusterNodes(text: string): ClusterNode[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [, endpoint = '', flags = '', , , , , , ...ranges] = line.trim().split(' ');
      const flagList = flags.split(',');
      const slots = ranges
        .filter((range) => !range.startsWith('['))
        .map((range): [number, number] => {
          const [from = '', to = from] = range.split('-');
          return [Number(from), Number(to)];
        });
      return {
        address: endpoint.split('@')[0] ?? endpoint,
        primary: flagList.includes('master'),
        failed: flagList.includes('fail') || flagList.includes('noaddr'),
        slots,
      };
    });
}

/** The slot ranges no live primary serves, as `a-b` strings, each with the failed primary that held it, if any. */
export function unservedSlots(nodes: readonly ClusterNode[]): string[] {
  const owner: (ClusterNode | undefined)[] = new Array<ClusterNode | undefined>(SLOTS);
  for (const node of nodes.filter((candidate) => candidate.primary))
    for (const [from, to] of node.slots) for (let slot = from; slot <= to; slot++) owner[slot] = node;
  const gaps: string[] = [];
  let start = -1;
  for (let slot = 0; slot <= SLOTS; slot++) {
    const node = owner[slot];
    const unserved = slot < SLOTS && (node === undefined || node.failed);
    const sameGap = start >= 0 && unserved && owner[start] === node;
    if (start >= 0 && !sameGap) {
      const holder = owner[start];
      const range = start === slot - 1 ? String(start) : `${start}-${slot - 1}`;
      gaps.push(
        holder === undefined ? `${range} (assigned to no node)` : `${range} (primary ${holder.address} is down)`,
      );
      start = -1;
    }
    if (unserved && start < 0) start = slot;
  }
  return gaps;
}

/**
 * Reads the cluster's nodes from one primary; throws `redis_unavailable` naming the slots no live
 * primary serves (and the node asked), then checks every reachable node's `maxmemory-policy` as
 * `checkEvictionPolicy` does for one server, naming the node, on a client made with `createClient`
 * (the loaded optional peer's: this module imports none of `redis` at run time) with the
 * connection's TLS and ACL user.
 */
export async function checkCluster(
  cluster: RedisClusterType,
  createClient: typeof RedisModule.createClient,
  options: RedisAccess & { readonly onerror?: (error: Error) => void; readonly allowEvictingRedis?: boolean },
  api: string,
  timeoutMs: number,
): Promise<void> {
  const first = cluster.masters[0];
  if (first === undefined) throw new Error('the cluster named no primary');
  const asked = `${first.host}:${first.port}`;
  const client = await cluster.nodeClient(first);
  const nodes = parseClusterNodes(await withDeadline(client.clusterNodes(), timeoutMs));
  const gaps = unservedSlots(nodes);
  if (gaps.length > 0) {
    throw new McpResolveError(
      'redis_unavailable',
      `${api}: Redis Cluster node ${asked} reports slots no live primary serves: ${gaps.join(', ')}; keys in them cannot be written. Assign every slot to a primary (redis-cli --cluster fix ${asked}) or wait for the failover to finish (CLUSTER INFO says cluster_state:ok), then connect again.`,
      { data: { operation: 'connect', target: asked } },
    );
  }
  for (const node of nodes.filter((candidate) => !candidate.failed)) {
    const colon = node.address.lastIndexOf(':');
    const [host, port] = [node.address.slice(0, colon), Number(node.address.slice(colon + 1))];
    const probe = createClient({
      ...credentials(options),
      socket: { host, port, connectTimeout: timeoutMs, reconnectStrategy: false, ...tlsSocket(options, api) },
    });
    probe.on('error', () => undefined);
    try {
      await withDeadline(probe.connect(), timeoutMs);
    } catch (error) {
      probe.destroy();
      const reason = error instanceof Error ? error.message : String(error);
      throw new McpResolveError(
        'redis_unavailable',
        `${api}: cannot reach Redis Cluster node ${node.address} (${reason}), which node ${asked} lists; start it, or remove it from the cluster (CLUSTER FORGET), then connect again.`,
        { data: { operation: 'connect', target: node.address } },
      );
    }
    try {
      const role = node.primary ? 'a primary' : 'a replica';
      await checkEvictionPolicy(probe, `cluster node ${node.address} (${role})`, options, api, timeoutMs);
    } finally {
      probe.destroy();
    }
  }
}
