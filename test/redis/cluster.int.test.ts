/**
 * A fleet on a real Redis Cluster (three primaries with a replica each): an answer to a push made
 * by one instance, posted to another, is relayed over sharded pub/sub and completes the call; the
 * answer page backend keeps its bounds there; and a cluster the guarantees do not hold on is
 * refused at start, naming the node: one whose maxmemory-policy may evict (a replica's too), and
 * one that leaves a slot without a primary.
 */
import { afterEach, describe, expect, it } from 'vitest';

import type { DualEraHandler } from '../../src/hosting/index.js';
import { createDualEraHandler } from '../../src/hosting/index.js';
import type { RedisFleet } from '../../src/redis/index.js';
import { connectRedisFleet, createRedisAnswerPageBackend } from '../../src/redis/index.js';
import { commandAt } from '../../scripts/lib/sentinel.js';
import { hosted, openLegacySession, post, SseReader } from '../../scripts/lib/wire.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';
import { useRedisCluster } from '../fixtures/redisCluster.js';

const URL_ = new URL('http://localhost/mcp');
const redis = useRedisCluster();
const running: Array<{ handler: DualEraHandler; fleet: RedisFleet }> = [];
let prefix = 0;

afterEach(async () => {
  for (const { handler, fleet } of running.splice(0)) {
    await handler.close();
    await fleet.close();
  }
});

describe('a fleet on a Redis Cluster', () => {
  it('relays an answer posted to another instance over sharded pub/sub, and the call completes', async () => {
    const keyPrefix = `cluster-relay${prefix++}:`;
    for (const index of [0, 1]) {
      const fleet = await connectRedisFleet({
        cluster: { nodes: redis.cluster().addresses },
        instanceId: `c-${index}`,
        keyPrefix,
      });
      running.push({ handler: createDualEraHandler(askNameServer, { sessionFleet: fleet.sessions }), fleet });
    }
    const [first, second] = running;
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(first!.handler) });
    const call = new SseReader(
      await post(
        { url: URL_, sessionId, fetch: hosted(first!.handler) },
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', arguments: {} } },
      ),
    );
    const push = await call.next();
    const onSecond = { url: URL_, sessionId, fetch: hosted(second!.handler) };
    const answer = { jsonrpc: '2.0', id: push.id, result: { action: 'accept', content: { name: 'Ada' } } };
    expect((await post(onSecond, answer)).status).toBe(202);
    const reply = await call.next();
    expect(reply).toMatchObject({ id: 1, result: { content: [{ type: 'text' }] } });
    expect(JSON.stringify(reply)).toContain('Ada');
    const channel = `${keyPrefix}sessions:relay:c-0`;
    expect(await first!.fleet.sessions.listening('c-0')).toBe(true);
    expect(await second!.fleet.sessions.listening('c-9')).toBe(false);
    // The channel is sharded: PUBSUB SHARDNUMSUB on its primary counts the subscriber.
    const primary = await redis.cluster().primaryFor(channel);
    expect(await commandAt(primary.port, ['PUBSUB', 'SHARDNUMSUB', channel])).toEqual([channel, 1]);
  });

  it('keeps the answer page bounds on the cluster: one slot holds a store’s pages and their bookkeeping', async () => {
    const connection = await redis.connect();
    const backend = await createRedisAnswerPageBackend(connection, {
      keyPrefix: 'cluster-pages:',
      maxPagesPerClient: 1,
    });
    const page = (pageId: string) => ({
      pageId,
      record: '{}',
      bindingKey: `binding-${pageId}`,
      client: 'alice',
      expiresAt: Date.now() + 60_000,
    });
    expect(await backend.open(page('p1'))).toBe('opened');
    expect(await backend.open(page('p2'))).toMatchObject({ limit: 'maxPagesPerClient', max: 1 });
    expect(await backend.answer('p1', '"yes"', Date.now() + 60_000)).toBe('stored');
    expect(await backend.take('binding-p1')).toBe('"yes"');
    expect(await backend.open(page('p2'))).toBe('opened');
  });
});

describe('a Redis Cluster refused at start', () => {
  it('names a replica whose maxmemory-policy may evict keys, and says what to do', async () => {
    const cluster = redis.cluster();
    const primary = await cluster.primaryFor('{mcp-resolve:replay:}epoch');
    const [replica] = await cluster.replicasOf(primary.port);
    await commandAt(replica!.port, ['CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru']);
    try {
      await expect(connectRedisFleet({ cluster: { nodes: cluster.addresses } })).rejects.toMatchObject({
        code: 'invalid_options',
        message: expect.stringContaining(
          `Redis at cluster node 127.0.0.1:${replica!.port} (a replica) may evict keys under memory pressure`,
        ) as string,
      });
      const warnings: Error[] = [];
      const fleet = await connectRedisFleet({
        cluster: { nodes: cluster.addresses },
        allowEvictingRedis: true,
        onerror: (error) => warnings.push(error),
      });
      await fleet.close();
      expect(warnings.map((warning) => warning.message)).toEqual([
        expect.stringContaining(
          `cluster node 127.0.0.1:${replica!.port} (a replica) may evict keys (maxmemory-policy allkeys-lru)`,
        ),
      ]);
    } finally {
      await commandAt(replica!.port, ['CONFIG', 'SET', 'maxmemory-policy', 'noeviction']);
    }
  });

  it('names the node and the slots no primary serves, and says what to do', async () => {
    const cluster = redis.cluster();
    const owner = await cluster.primaryFor('{mcp-resolve:sessions:}live');
    const slot = Number(await commandAt(owner.port, ['CLUSTER', 'KEYSLOT', '{mcp-resolve:sessions:}live']));
    // Every node forgets the slot's owner, as after a botched reshard: the owner first, so no node
    // still advertises the slot in its gossip and the others cannot learn it back.
    for (const node of [owner, ...cluster.nodes.filter((other) => other.port !== owner.port)])
      await commandAt(node.port, ['CLUSTER', 'DELSLOTS', String(slot)]).catch(() => undefined);
    try {
      const refused = await connectRedisFleet({ cluster: { nodes: cluster.addresses } }).then(
        async (fleet) => (await fleet.close(), undefined),
        (error: unknown) => error as Error,
      );
      expect(refused).toMatchObject({ code: 'redis_unavailable', data: { operation: 'connect' } });
      expect(refused?.message).toMatch(
        new RegExp(
          `^connectRedisFleet\\(\\): Redis Cluster node 127\\.0\\.0\\.1:\\d+ reports slots no live primary serves: ${slot} \\(assigned to no node\\); keys in them cannot be written\\. Assign every slot to a primary \\(redis-cli --cluster fix 127\\.0\\.0\\.1:\\d+\\)`,
        ),
      );
    } finally {
      await commandAt(owner.port, ['CLUSTER', 'ADDSLOTS', String(slot)]);
      await cluster.healthy();
    }
  });
});
