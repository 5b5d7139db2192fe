/**
 * Replay keys that cannot be evicted, against real redis-servers: a Redis whose `maxmemory-policy`
 * may evict keys is refused at connect (or, opted in, accepted with one warning); a Redis that
 * hides its policy gets one warning naming the setting; and under `noeviction` a Redis filled by a
 * flood keeps every replay key, refuses every replayed final round, and fails a round whose replay
 * write it refuses (OOM) closed.
 */
import { createClient } from 'redis';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { elicit, McpResolveError, resolver } from 'mcp-resolve';
import type { RedisConnection } from 'mcp-resolve/redis';
import { connectRedis, connectRedisFleet } from 'mcp-resolve/redis';

import type { RedisServer } from '../../scripts/lib/processes.js';
import { startRedisServer } from '../../scripts/lib/processes.js';
import { accept, connectManual, newServer, onCleanup, textOf } from '../resolvers/helpers.js';

/** A plain node-redis client, for what the library refuses to connect to. */
async function admin(url: string) {
  const client = createClient({ url });
  await client.connect();
  onCleanup(async () => {
    client.destroy();
  });
  return client;
}

/** The error `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

const FIX =
  'Set maxmemory-policy noeviction on that Redis (CONFIG SET maxmemory-policy noeviction, and in redis.conf so a restart keeps it), or give mcp-resolve a Redis of its own with noeviction';

describe('the eviction policy, checked at connect', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.dispose();
  });

  it('refuses every policy but noeviction, naming maxmemory-policy, the policy found and the fix', async () => {
    const control = await admin(redis.url);
    for (const policy of ['volatile-lru', 'allkeys-lru', 'volatile-ttl', 'allkeys-random']) {
      await control.configSet('maxmemory-policy', policy);
      const error = await failure(connectRedis(redis.url));
      expect(error).toBeInstanceOf(McpResolveError);
      expect(error).toMatchObject({
        code: 'invalid_options',
        data: { api: 'connectRedis()', option: 'allowEvictingRedis' },
        message: `connectRedis(): Redis at ${redis.url} may evict keys under memory pressure, and an evicted replay key lets a used token be accepted again (got maxmemory-policy ${policy}). ${FIX}; allowEvictingRedis: true starts anyway, with a warning.`,
      });
    }
    const error = await failure(connectRedisFleet({ url: redis.url }));
    expect(error).toMatchObject({ code: 'invalid_options', data: { api: 'connectRedisFleet()' } });
    expect((error as Error).message).toMatch(/^connectRedisFleet\(\): .*\(got maxmemory-policy allkeys-random\)/);
    await control.configSet('maxmemory-policy', 'noeviction');
    const fleet = await connectRedisFleet({ url: redis.url, onerror: () => expect.unreachable() });
    await fleet.close();
  });

  it('with allowEvictingRedis: true starts, with one loud warning through onerror', async () => {
    const control = await admin(redis.url);
    await control.configSet('maxmemory-policy', 'volatile-lru');
    try {
      const warnings: Error[] = [];
      const fleet = await connectRedisFleet({
        url: redis.url,
        allowEvictingRedis: true,
        onerror: (error) => warnings.push(error),
      });
      await fleet.close();
      expect(warnings.map((warning) => warning.message)).toEqual([
        `WARNING connectRedisFleet(): Redis at ${redis.url} may evict keys (maxmemory-policy volatile-lru) and allowEvictingRedis is set: under memory pressure an evicted replay key lets a used token be accepted again (a completed call's final round runs twice). ${FIX}.`,
      ]);
    } finally {
      await control.configSet('maxmemory-policy', 'noeviction');
    }
  });

  it('warns once, naming the setting to check, when Redis refuses CONFIG (a managed Redis)', async () => {
    const control = await admin(redis.url);
    await control.sendCommand(['ACL', 'SETUSER', 'app', 'on', '>app-secret', '~*', '&*', '+@all', '-config']);
    await control.configSet('maxmemory-policy', 'allkeys-lru'); // not visible to `app`, so not refused
    try {
      const warnings: Error[] = [];
      const url = `redis://app:app-secret@127.0.0.1:${redis.port}`;
      const connection: RedisConnection = await connectRedis(url, { onerror: (error) => warnings.push(error) });
      await connection.destroy();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.message).toMatch(
        /^connectRedis\(\): the ACL user may not run CONFIG GET on Redis at redis:\/\/app:\*\*\*@127\.0\.0\.1:\d+ \(NOPERM.*\), so its maxmemory-policy is not checked\. Check in your provider's settings that it is noeviction /,
      );
    } finally {
      await control.configSet('maxmemory-policy', 'noeviction');
    }
  });

  it('refuses a command timeout that is not a positive integer, naming the option', async () => {
    for (const commandTimeoutMs of [0, -1, Number.NaN]) {
      await expect(connectRedis(redis.url, { commandTimeoutMs })).rejects.toMatchObject({
        code: 'invalid_options',
        data: { api: 'connectRedis()', option: 'commandTimeoutMs' },
        message: `connectRedis(): commandTimeoutMs must be a positive integer number of milliseconds (got ${String(commandTimeoutMs)}).`,
      });
    }
  });
});

describe('a Redis full under noeviction', () => {
  let full: RedisServer;
  beforeAll(async () => {
    full = await startRedisServer({ args: () => ['--maxmemory', '8mb'] });
  });
  afterAll(async () => {
    await full?.dispose();
  });

  const Approve = z.object({ approve: z.boolean() });
  const approval = resolver({ name: 'approval', args: { order: z.string() } }, ({ order }) =>
    elicit(`Refund ${order}?`, Approve),
  );

  /** The refund desk's shape: a question, then a body that must run once per call. */
  async function desk() {
    const keyPrefix = `desk:${crypto.randomUUID()}:`;
    const fleet = await connectRedisFleet({ url: full.url, keyPrefix });
    onCleanup(() => fleet.close());
    const refunds: string[] = [];
    const server = newServer({ requestState: { replayStore: fleet.replayStore } }).tool(
      'refund',
      { input: { order: z.string() }, resolve: { decision: approval } },
      ({ order }) => {
        refunds.push(order);
        return `Refunded ${order}.`;
      },
    );
    return { client: await connectManual(server), refunds, fleet, keyPrefix };
  }

  /** Deletes what {@link flood} wrote. */
  async function drain(redis: RedisConnection): Promise<void> {
    const keys = await redis.keys('flood:*');
    if (keys.length > 0) await redis.del(keys);
  }

  /**
   * Writes keys of `bytes` that expire (what legacy sessions look like to Redis) until Redis
   * refuses one; at most 10,000.
   */
  async function flood(redis: RedisConnection, bytes = 1_048_576): Promise<{ written: number; refused: string }> {
    const value = 'x'.repeat(bytes);
    for (let written = 0; written < 10_000; written++) {
      try {
        await redis.set(`flood:${bytes}:${written}`, value, { expiration: { type: 'PX', value: 600_000 } });
      } catch (error) {
        return { written, refused: error instanceof Error ? error.message : String(error) };
      }
    }
    throw new Error(`Redis accepted 10,000 keys of ${bytes} bytes with maxmemory 8mb`);
  }

  /**
   * Makes Redis strictly full. A flood alone leaves a little room: Redis refuses a write whose
   * argument does not fit, and that argument's memory is freed with it, so small writes still pass
   * for a while (the replay keys' among them). A maxmemory just under what is used refuses them all.
   */
  async function fill(redis: RedisConnection): Promise<void> {
    await flood(redis);
    const used = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);
    await redis.configSet('maxmemory', String(used - 65_536));
    await expect(redis.set('probe', '1')).rejects.toThrow(/^OOM command not allowed/);
  }

  it('refuses to connect to a full Redis, naming memory (not a replica) as the cause and the fix', async () => {
    const control = await connectRedis(full.url);
    onCleanup(async () => {
      await control.destroy();
    });
    await fill(control);
    try {
      const error = await failure(connectRedisFleet({ url: full.url, keyPrefix: `full:${crypto.randomUUID()}:` }));
      expect(error).toMatchObject({ code: 'redis_unavailable', data: { operation: 'claim_epoch' } });
      expect((error as Error).message).toMatch(
        /refused the replay epoch record \(OOM command not allowed.*\); Redis is full \(maxmemory reached\): raise its maxmemory or free memory, then connect again\.$/,
      );
      expect((error as Error).message).not.toMatch(/writable primary/);
    } finally {
      await control.configSet('maxmemory', '8mb');
      await drain(control);
    }
  });

  it('keeps every replay key through a flood and accepts none of 20 replayed final rounds', async () => {
    const { client, refunds, fleet, keyPrefix } = await desk();
    const finals = [];
    for (let i = 0; i < 20; i++) {
      const order = `ORD-${i}`;
      const asked = await client.round('refund', { order });
      if (asked.kind !== 'input_required') throw new Error('expected a question');
      const final = { inputResponses: { approval: accept({ approve: true }) }, requestState: asked.requestState };
      const done = await client.round('refund', { order }, final);
      expect(done.kind === 'complete' && textOf(done.result)).toBe(`Refunded ${order}.`);
      finals.push({ order, final });
    }
    const replayKeys = async () => (await fleet.redis.keys(`{${keyPrefix}replay:}*`)).length;
    const before = await replayKeys();
    expect(before).toBe(21); // 20 consumed ids and the epoch record
    const { written, refused } = await flood(fleet.redis);
    expect(written).toBeGreaterThan(0);
    expect(refused).toMatch(/^OOM command not allowed/);
    expect(await replayKeys()).toBe(before);
    for (const { order, final } of finals) {
      await expect(client.round('refund', { order }, final)).rejects.toMatchObject({
        code: -32602,
        message: 'Invalid or expired requestState',
      });
    }
    expect(refunds).toHaveLength(20);
    await drain(fleet.redis);
  });

  it('fails a round closed when Redis refuses its replay write (OOM); once Redis has room it is accepted once', async () => {
    const { client, refunds, fleet } = await desk();
    const asked = await client.round('refund', { order: 'ORD-9' });
    if (asked.kind !== 'input_required') throw new Error('expected a question');
    const final = { inputResponses: { approval: accept({ approve: true }) }, requestState: asked.requestState };
    await fill(fleet.redis);
    try {
      await expect(client.round('refund', { order: 'ORD-9' }, final)).rejects.toMatchObject({
        code: -32603,
        message: 'Internal error',
      });
      expect(refunds).toEqual([]);
    } finally {
      await fleet.redis.configSet('maxmemory', '8mb');
      await drain(fleet.redis);
    }
    const done = await client.round('refund', { order: 'ORD-9' }, final);
    expect(done.kind === 'complete' && textOf(done.result)).toBe('Refunded ORD-9.');
    await expect(client.round('refund', { order: 'ORD-9' }, final)).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
    expect(refunds).toEqual(['ORD-9']);
  });
});
