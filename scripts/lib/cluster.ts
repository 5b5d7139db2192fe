/**
 * A Redis Cluster on loopback for tests and scripts: three primaries and three replicas
 * (`redis-cli --cluster create … --cluster-replicas 1`), each a real `redis-server
 * --cluster-enabled yes` in its own throwaway directory, with no persistence. A node restarted
 * after a kill keeps its `nodes.conf` and rejoins as a replica of the replica that took over.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import type { RedisServer } from './processes.js';
import { INSTALL_HINT, findBinary, startRedisServer } from './processes.js';
import type { RedisAccessSetup } from './redisAccess.js';
import { commandAt } from './sentinel.js';

/** A running cluster. */
export interface RedisCluster {
  /** The six data nodes, in start order. */
  readonly nodes: readonly RedisServer[];
  /** Their `host:port` addresses (what `connectRedisFleet({ cluster: { nodes } })` takes). */
  readonly addresses: readonly string[];
  /** The node currently serving `key`'s slot as primary. */
  primaryFor(key: string): Promise<RedisServer>;
  /** The replicas of the primary on `port`, as the cluster lists them now. */
  replicasOf(port: number): Promise<RedisServer[]>;
  /** Resolves once every slot is served again (`cluster_state:ok` on every running node) within `timeoutMs`. */
  healthy(timeoutMs?: number): Promise<void>;
  /** Stops every node and removes the directories. */
  dispose(): Promise<void>;
}

/** Polls `ready` every 100 ms until it holds, or throws `what` after `timeoutMs`. */
async function until(what: string, timeoutMs: number, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} after ${timeoutMs} ms`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

/** `CLUSTER NODES` of the node on `port`: each node's port, whether it is a primary, its primary's id, its id, and whether it failed. */
async function clusterNodes(
  port: number,
  access: RedisAccessSetup | undefined,
): Promise<{ id: string; port: number; primary: boolean; of: string; failed: boolean }[]> {
  const text = String(await commandAt(port, ['CLUSTER', 'NODES'], access));
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id = '', endpoint = '', flags = '', of = ''] = line.split(' ');
      return {
        id,
        port: Number(endpoint.split('@')[0]?.split(':')[1]),
        primary: flags.includes('master'),
        of,
        failed: flags.split(',').includes('fail'),
      };
    });
}

/** Attempts at starting one node before its port trouble is reported. */
const NODE_START_ATTEMPTS = 5;

/**
 * Starts one cluster node, again on another free port when its port, or its cluster bus port (the
 * port plus 10000, which no free-port check reserves), was taken by another process meanwhile.
 */
async function startClusterNode(options: Parameters<typeof startRedisServer>[0]): Promise<RedisServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startRedisServer(options);
    } catch (error) {
      if (attempt >= NODE_START_ATTEMPTS || !String(error).includes('Address already in use')) throw error;
    }
  }
}

/**
 * Starts six cluster nodes (`cluster-node-timeout` `nodeTimeoutMs`) and joins them as three
 * primaries with a replica each (with `access`: TLS only, also on the cluster bus, and an ACL login).
 */
export async function startRedisCluster(nodeTimeoutMs = 2_000, access?: RedisAccessSetup): Promise<RedisCluster> {
  const at = (port: number, args: string[]) => commandAt(port, args, access);
  const cli = findBinary('redis-cli');
  if (cli === undefined) throw new Error(`redis-cli is not installed. Install it with: ${INSTALL_HINT}`);
  const nodes: RedisServer[] = [];
  const running = (): RedisServer[] => nodes.filter((node) => node.running());
  try {
    for (let i = 0; i < 6; i++) {
      nodes.push(
        await startClusterNode({
          args: (dir) => [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            join(dir, 'nodes.conf'),
            '--cluster-node-timeout',
            String(nodeTimeoutMs),
            ...(access === undefined ? [] : ['--tls-cluster', 'yes']),
          ],
          ...(access && { listen: (port: number) => access.serverArgs(port) }),
        }),
      );
    }
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    const create = ['--cluster', 'create', ...addresses, '--cluster-replicas', '1', '--cluster-yes'];
    const created = spawn(cli, [...(access?.cliArgs() ?? []), ...create], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    created.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    created.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => created.once('exit', resolve));
    if (code !== 0) throw new Error(`redis-cli --cluster create failed (${String(code)}):\n${output}`);
    const byPort = (port: number): RedisServer => {
      const node = nodes.find((candidate) => candidate.port === port);
      if (node === undefined) throw new Error(`no cluster node on :${port}`);
      return node;
    };
    const cluster: RedisCluster = {
      nodes,
      addresses,
      async primaryFor(key) {
        const [first] = running();
        const slot = Number(await at(first!.port, ['CLUSTER', 'KEYSLOT', key]));
        const reply = (await at(first!.port, ['CLUSTER', 'SLOTS'])) as [number, number, [string, number]][];
        const range = reply.find(([from, to]) => slot >= from && slot <= to);
        if (range === undefined) throw new Error(`no primary serves slot ${slot}`);
        return byPort(Number(range[2][1]));
      },
      async replicasOf(port) {
        const listed = await clusterNodes(running()[0]!.port, access);
        const id = listed.find((node) => node.port === port)?.id;
        return listed.filter((node) => !node.failed && node.of === id).map((node) => byPort(node.port));
      },
      async healthy(timeoutMs = 30_000) {
        await until('the cluster did not report cluster_state:ok on every node', timeoutMs, async () => {
          for (const node of running()) {
            const info = String(await at(node.port, ['CLUSTER', 'INFO']));
            if (!info.includes('cluster_state:ok')) return false;
          }
          return true;
        });
      },
      async dispose() {
        await Promise.all(nodes.map((node) => node.dispose()));
      },
    };
    await cluster.healthy();
    // Every node knows all six, and each primary has its replica online (so WAIT 1 succeeds).
    await until('the cluster nodes did not all meet, or a replica did not sync', 30_000, async () => {
      for (const node of nodes) {
        const listed = await clusterNodes(node.port, access);
        if (listed.length !== 6 || listed.filter((entry) => !entry.primary).length !== 3) return false;
        const replication = String(await at(node.port, ['INFO', 'replication']));
        if (replication.includes('role:master') && !/slave0:.*state=online/.test(replication)) return false;
      }
      return true;
    });
    return cluster;
  } catch (error) {
    await Promise.all(nodes.map((node) => node.dispose()));
    throw error;
  }
}
