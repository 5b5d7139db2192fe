/**
 * A Redis Sentinel group on loopback for tests and scripts: one primary, two replicas and three
 * sentinels (quorum 2), each a real process in its own throwaway directory, with no persistence.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { createClient } from 'redis';

import type { RedisServer } from './processes.js';
import { INSTALL_HINT, findBinary, startRedisServer } from './processes.js';
import type { RedisAccessSetup } from './redisAccess.js';

/** Timings of a {@link SentinelGroup}. */
export interface SentinelTimings {
  /** How long a primary must be silent before the sentinels call it down (`down-after-milliseconds`). */
  readonly downAfterMs: number;
  /** `failover-timeout`. */
  readonly failoverTimeoutMs: number;
}

/** A running Sentinel group. */
export interface SentinelGroup {
  /** The monitored name. */
  readonly masterName: string;
  /** The data nodes; the first started as the primary. */
  readonly nodes: readonly RedisServer[];
  /** The sentinels. */
  readonly sentinels: readonly RedisServer[];
  /** The sentinels' `host:port` addresses. */
  readonly addresses: readonly string[];
  /** The data node the sentinels currently name as primary. */
  primary(): Promise<RedisServer>;
  /** Stops everything and removes the directories. */
  dispose(): Promise<void>;
}

/** Sends one command to the server on `port` over a short-lived connection (as `access`'s admin, over TLS, when given). */
export async function commandAt(port: number, args: string[], access?: RedisAccessSetup): Promise<unknown> {
  const admin = access?.adminOptions();
  const client = createClient({
    ...(admin && { username: admin.username, password: admin.password }),
    socket: { host: '127.0.0.1', port, connectTimeout: 1_000, reconnectStrategy: false, ...admin?.socket },
  });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await client.sendCommand(args);
  } finally {
    client.destroy();
  }
}

/** Asks one sentinel which port the primary is on. */
export async function primaryPort(
  sentinelPort: number,
  masterName: string,
  access?: RedisAccessSetup,
): Promise<number> {
  const reply = await commandAt(sentinelPort, ['SENTINEL', 'get-master-addr-by-name', masterName], access);
  const port = Array.isArray(reply) ? Number(reply[1]) : Number.NaN;
  if (!Number.isInteger(port)) throw new Error(`sentinel :${sentinelPort} does not know ${masterName}`);
  return port;
}

/** Polls `ready` every 100 ms until it holds, or throws `what` after `timeoutMs`. */
async function until(what: string, timeoutMs: number, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} after ${timeoutMs} ms`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

/** Waits until `count` replicas acknowledge writes on the primary at `port`. */
export async function replicasInSync(port: number, count: number, access?: RedisAccessSetup): Promise<void> {
  await until(`${count} replica(s) did not sync`, 20_000, async () => {
    await commandAt(port, ['SET', 'mcp-resolve:sync', '1'], access);
    return (await commandAt(port, ['WAIT', String(count), '200'], access)) === count;
  });
  await commandAt(port, ['DEL', 'mcp-resolve:sync'], access);
}

/** Waits until both replicas follow the primary and every sentinel knows both replicas and the other sentinels. */
async function settled(
  primary: number,
  sentinels: readonly number[],
  masterName: string,
  access: RedisAccessSetup | undefined,
): Promise<void> {
  await replicasInSync(primary, 2, access);
  for (const port of sentinels) {
    await until(`sentinel :${port} did not discover the group`, 30_000, async () => {
      const replicas = await commandAt(port, ['SENTINEL', 'replicas', masterName], access);
      const peers = await commandAt(port, ['SENTINEL', 'sentinels', masterName], access);
      return Array.isArray(replicas) && replicas.length === 2 && Array.isArray(peers) && peers.length === 2;
    });
  }
}

/**
 * Starts a primary, two replicas and three sentinels monitoring it as `masterName` (with `access`:
 * every node and sentinel speaks only TLS and requires an ACL login).
 */
export async function startSentinelGroup(
  masterName: string,
  timings: SentinelTimings = { downAfterMs: 2_000, failoverTimeoutMs: 10_000 },
  access?: RedisAccessSetup,
): Promise<SentinelGroup> {
  const listen = access && { listen: (port: number) => access.serverArgs(port) };
  const sentinelBinary = findBinary('redis-sentinel');
  if (sentinelBinary === undefined)
    throw new Error(`redis-sentinel is not installed. Install it with: ${INSTALL_HINT}`);
  const started: RedisServer[] = [];
  try {
    const primary = await startRedisServer({ ...listen });
    started.push(primary);
    // Replicas are made so by command, not by flag: a node restarted later comes back as an empty
    // primary (the Redis-restarted-empty fault), and the sentinels turn it back into a replica.
    for (let i = 0; i < 2; i++) {
      const replica = await startRedisServer({ ...listen });
      started.push(replica);
      await commandAt(replica.port, ['REPLICAOF', '127.0.0.1', String(primary.port)], access);
    }
    const nodes = [...started];
    const sentinels: RedisServer[] = [];
    for (let i = 0; i < 3; i++) {
      const sentinel = await startRedisServer({
        binary: sentinelBinary,
        ...(access && { listen: (port: number) => access.sentinelArgs(port) }),
        args: (dir) => {
          const file = join(dir, 'sentinel.conf');
          writeFileSync(
            file,
            [
              `sentinel monitor ${masterName} 127.0.0.1 ${primary.port} 2`,
              `sentinel down-after-milliseconds ${masterName} ${timings.downAfterMs}`,
              `sentinel failover-timeout ${masterName} ${timings.failoverTimeoutMs}`,
              `sentinel parallel-syncs ${masterName} 1`,
              ...(access?.sentinelLines(masterName) ?? []),
              '',
            ].join('\n'),
          );
          return [file];
        },
      });
      sentinels.push(sentinel);
      started.push(sentinel);
    }
    await settled(
      primary.port,
      sentinels.map((sentinel) => sentinel.port),
      masterName,
      access,
    );
    return {
      masterName,
      nodes,
      sentinels,
      addresses: sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`),
      async primary() {
        for (const sentinel of sentinels) {
          try {
            const port = await primaryPort(sentinel.port, masterName, access);
            const node = nodes.find((candidate) => candidate.port === port);
            if (node !== undefined) return node;
          } catch {
            // ask the next sentinel
          }
        }
        throw new Error(`no sentinel names a primary for ${masterName}`);
      },
      async dispose() {
        await Promise.all(started.map((server) => server.dispose()));
      },
    };
  } catch (error) {
    await Promise.all(started.map((server) => server.dispose()));
    throw error;
  }
}
