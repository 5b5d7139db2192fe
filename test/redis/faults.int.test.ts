/**
 * The replay guard under Redis faults, against real servers: a Redis that lost its data (flushed,
 * restarted empty) never reopens a token sealed before the loss; a round is accepted only once a
 * replica acknowledged its key; a read-only replica or an out-of-memory Redis fails the round
 * closed; and a Sentinel group is reached by sentinel addresses and master name, with one clear
 * error naming them when they are wrong.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { claimReplayEpoch, connectRedis, connectRedisFleet, createRedisReplayStore } from '../../src/redis/index.js';
import type { RedisConnection } from '../../src/redis/index.js';
import { createSealer } from '../../src/state/sealer.js';
import type { RedisServer } from '../../scripts/lib/processes.js';
import { startRedisServer } from '../../scripts/lib/processes.js';
import type { SentinelGroup } from '../../scripts/lib/sentinel.js';
import { replicasInSync, startSentinelGroup } from '../../scripts/lib/sentinel.js';
import { BINDING, KEY_A, bytes, captureLog, protocolRejection, wireOf } from '../state/helpers.js';

let primary: RedisServer;
let replica: RedisServer;
const connections: RedisConnection[] = [];

beforeAll(async () => {
  primary = await startRedisServer();
  replica = await startRedisServer({ args: () => ['--replicaof', '127.0.0.1', String(primary.port)] });
  await replicasInSync(primary.port, 1);
}, 120_000);
afterAll(async () => {
  for (const connection of connections.splice(0)) await connection.destroy();
  await replica?.dispose();
  await primary?.dispose();
});

/**
 * The command deadline on paths expected to succeed: far past any answer of a starved machine. No
 * test here needs one to expire: each fault fails at once (offline, READONLY, OOM) or by Redis's own
 * timeout (`WAIT`).
 */
const PATIENT_MS = 30_000;

async function connect(url: string): Promise<RedisConnection> {
  const connection = await connectRedis(url, { commandTimeoutMs: PATIENT_MS });
  connections.push(connection);
  return connection;
}

async function instance(url: string, options: Parameters<typeof createRedisReplayStore>[1] = {}) {
  const connection = await connect(url);
  const errors: Error[] = [];
  const log = captureLog();
  const keyPrefix = options.keyPrefix ?? `faults:${crypto.randomUUID()}:`;
  if (url !== replica.url) await claimReplayEpoch(connection, keyPrefix);
  const store = createRedisReplayStore(connection, {
    keyPrefix,
    commandTimeoutMs: PATIENT_MS,
    onerror: (error) => errors.push(error),
    ...options,
  });
  const sealer = createSealer('refund-desk', { keys: [KEY_A], replayStore: store, sink: log.sink });
  return { sealer, errors, log, connection };
}

describe('a Redis that lost its data', () => {
  it('refuses a token consumed before FLUSHALL, and says why; tokens sealed after the loss pass', async () => {
    const a = await instance(primary.url, { epochMarginMs: 50 });
    const first = await a.sealer.seal(bytes('final round'), BINDING);
    const inFlight = await a.sealer.seal(bytes('next round'), BINDING);
    expect(await a.sealer.open(first, BINDING)).toEqual(bytes('final round'));
    await a.connection.flushAll();
    await protocolRejection(a.sealer.open(first, BINDING));
    expect(a.errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/^Replay check: Redis lost its replay records \(the epoch record .+epoch was missing/),
    ]);
    // A call in flight at the loss starts again: its next round is refused too.
    await protocolRejection(a.sealer.open(inFlight, BINDING));
    expect(a.log.lines.at(-1)).toBe('requestState rejected on tools/call: replayed');
    await new Promise((wake) => setTimeout(wake, 60));
    const fresh = await a.sealer.seal(bytes('new call'), BINDING);
    expect(await a.sealer.open(fresh, BINDING)).toEqual(bytes('new call'));
  });

  it('refuses a consumed token after Redis restarted empty, on every instance', async () => {
    const server = await startRedisServer();
    try {
      const a = await instance(server.url, { keyPrefix: 'shared:' });
      const b = await instance(server.url, { keyPrefix: 'shared:' });
      const token = await a.sealer.seal(bytes('s'), BINDING);
      expect(await a.sealer.open(token, BINDING)).toEqual(bytes('s'));
      await server.stop(true);
      await server.restart();
      await expect.poll(() => a.connection.isReady && b.connection.isReady, { timeout: 10_000 }).toBe(true);
      await protocolRejection(b.sealer.open(token, BINDING));
      await protocolRejection(a.sealer.open(token, BINDING));
    } finally {
      await server.dispose();
    }
  });

  it('without the epoch record a store refuses every token it cannot vouch for; once claimed, new tokens pass', async () => {
    const connection = await connect(primary.url);
    const errors: Error[] = [];
    const store = createRedisReplayStore(connection, {
      keyPrefix: 'unclaimed:',
      commandTimeoutMs: PATIENT_MS,
      onerror: (error) => errors.push(error),
    });
    expect(await store.consume('id-1', Date.now() + 60_000, Date.now())).toBe(false);
    expect(errors).toHaveLength(1);
    await connection.del('{unclaimed:}epoch');
    await claimReplayEpoch(connection, 'unclaimed:');
    expect(await store.consume('id-2', Date.now() + 60_000, Date.now())).toBe(true);
  });
});

describe('replica acknowledgement', () => {
  it('accepts a round once a replica acknowledged its key', async () => {
    // The replica gets 20 s to acknowledge (500 ms by default): a starved one is slow, not absent.
    const a = await instance(primary.url, { replicaAcks: 1, replicaAckTimeoutMs: 20_000 });
    const token = await a.sealer.seal(bytes('s'), BINDING);
    expect(await a.sealer.open(token, BINDING)).toEqual(bytes('s'));
  });

  it('fails the round closed when no replica acknowledges within the timeout', async () => {
    const a = await instance(primary.url, { replicaAcks: 1, replicaAckTimeoutMs: 200 });
    const token = await a.sealer.seal(bytes('s'), BINDING);
    replica.pause();
    try {
      const error = await protocolRejection(a.sealer.open(token, BINDING));
      expect(wireOf(error)).toEqual({ code: -32603, message: 'Internal error', data: undefined });
      expect(a.errors.map((failure) => failure.message)).toEqual([
        'Replay check failed: Redis did not answer (the consumed id reached 0 of 1 replica(s) within 200 ms). The round is refused (its token may already count as used); start the call again once Redis answers.',
      ]);
    } finally {
      replica.resume();
    }
  });
});
describe('a Redis that answers with errors', () => {
  it('fails the round closed on a read-only replica', async () => {
    const a = await instance(replica.url);
    const token = await a.sealer.seal(bytes('s'), BINDING);
    await protocolRejection(a.sealer.open(token, BINDING));
    expect(a.log.lines).toEqual(['requestState replay check failed on tools/call: replay_store_error']);
    expect(a.errors[0]?.message).toMatch(/^Replay check failed: Redis did not answer \(.*READONLY/);
  });

  it('fails the round closed when Redis is out of memory (noeviction)', async () => {
    const a = await instance(primary.url);
    const warm = await a.sealer.seal(bytes('w'), BINDING);
    await a.sealer.open(warm, BINDING); // the epoch record exists
    const token = await a.sealer.seal(bytes('s'), BINDING);
    await a.connection.configSet('maxmemory', '1');
    try {
      await protocolRejection(a.sealer.open(token, BINDING));
      expect(a.log.lines).toEqual(['requestState replay check failed on tools/call: replay_store_error']);
      expect(a.errors[0]?.message).toMatch(/^Replay check failed: Redis did not answer \(.*OOM/);
    } finally {
      await a.connection.configSet('maxmemory', '0');
    }
  });
});

describe('Redis Sentinel', () => {
  let group: SentinelGroup;
  beforeAll(async () => {
    group = await startSentinelGroup('faults');
  }, 120_000);
  afterAll(async () => {
    await group?.dispose();
  });

  it('connects a fleet member by sentinel addresses and master name; rounds wait for a replica', async () => {
    // The replica gets 20 s to acknowledge (500 ms by default): a starved one is slow, not absent.
    const fleet = await connectRedisFleet({
      sentinel: { sentinels: [...group.addresses], masterName: 'faults' },
      commandTimeoutMs: PATIENT_MS,
      replicaAckTimeoutMs: 20_000,
    });
    try {
      const sealer = createSealer('refund-desk', {
        keys: [KEY_A],
        replayStore: fleet.replayStore,
        sink: captureLog().sink,
      });
      const token = await sealer.seal(bytes('s'), BINDING);
      expect(await sealer.open(token, BINDING)).toEqual(bytes('s'));
      await protocolRejection(sealer.open(token, BINDING));
    } finally {
      await fleet.close();
    }
  });

  it('names the sentinels and the master when the master name is wrong', async () => {
    await expect(
      connectRedis({ sentinels: [...group.addresses], masterName: 'nope' }, { connectTimeoutMs: 2_000 }),
    ).rejects.toThrow(`Cannot connect to Redis at master "nope" through sentinels ${group.addresses.join(', ')}`);
  });

  it('the story server exits 1 with one line naming wrong sentinel addresses', () => {
    const server = fileURLToPath(new URL('../../examples/stories/refund-desk/server.ts', import.meta.url));
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', server, '--http', '--sentinels', '127.0.0.1:1', '--master-name', 'faults'],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^refund-desk: Cannot connect to Redis at master "faults" through sentinels 127\.0\.0\.1:1: .*--master-name\)\.$/,
      ),
    ]);
  });
});
