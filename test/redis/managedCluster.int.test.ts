/**
 * Managed Redis as a Redis Cluster: three primaries with a replica each, every node speaking only
 * TLS (the cluster bus and replication too) and logging users in by the guide's ACL line. The
 * fleet connects to the given nodes and every discovered one over TLS as that user, and the
 * start-up check reads every node the same way.
 */
import { describe, expect, it } from 'vitest';

import { McpResolveError } from 'mcp-resolve';
import { connectRedis, connectRedisFleet } from 'mcp-resolve/redis';

import { DATA_USER, libraryOptions, useRedisAccess } from '../fixtures/redisAccess.js';
import { useRedisCluster } from '../fixtures/redisCluster.js';
import { managedStory } from './managedStory.js';

const access = useRedisAccess({ authClients: 'yes' });
const redis = useRedisCluster(access);

managedStory(
  'Cluster',
  async () => connectRedisFleet({ cluster: { nodes: redis.cluster().addresses }, ...libraryOptions(access()) }),
  { replicaAcks: 1 },
);

describe('managed Redis, Cluster: connecting', () => {
  it('reads every node at start over TLS as the ACL user', async () => {
    const warnings: Error[] = [];
    const connection = await connectRedis(
      { nodes: redis.cluster().addresses.slice(0, 1) },
      { ...libraryOptions(access()), onerror: (error) => void warnings.push(error) },
    );
    await connection.destroy();
    expect(warnings).toEqual([]);
  });

  it('names tls when the nodes speak only TLS, and username and password on a wrong password', async () => {
    const nodes = redis.cluster().addresses;
    const plain = await connectRedis({ nodes }, { ...DATA_USER, connectTimeoutMs: 30_000 }).catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(McpResolveError);
    expect((plain as Error).message).toMatch(
      /127\.0\.0\.1:\d+ speaks only TLS: set tls \(or use a rediss:\/\/ URL\)\.$/,
    );
    const wrong = await connectRedis(
      { nodes },
      { ...libraryOptions(access()), password: 'nope-1618', connectTimeoutMs: 30_000 },
    ).catch((e: unknown) => e);
    expect((wrong as Error).message).toContain(
      'Redis refused the user and password (WRONGPASS): set username and password',
    );
    expect((wrong as Error).message).not.toContain('nope-1618');
  });
});
