/**
 * The Redis replay store against a real redis-server: single use across instances (separate
 * connections and sealers) and restarts, and a fail-closed round when Redis cannot answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { claimReplayEpoch, connectRedis, createRedisReplayStore } from '../../src/redis/index.js';
import type { RedisConnection } from '../../src/redis/index.js';
import { createSealer } from '../../src/state/sealer.js';
import type { RedisServer } from '../../scripts/lib/processes.js';
import { freePort, startRedisServer } from '../../scripts/lib/processes.js';
import { BINDING, FROZEN, KEY_A, bytes, captureLog, protocolRejection, wireOf } from '../state/helpers.js';

let redis: RedisServer;
const connections: RedisConnection[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  for (const connection of connections.splice(0)) await connection.destroy();
  await redis?.dispose();
});

/**
 * The command deadline on paths expected to succeed: far past any answer of a starved machine, so
 * only a Redis that does not answer reaches it.
 */
const PATIENT_MS = 30_000;

/** How a test shapes an instance. */
interface InstanceOptions {
  readonly onerror?: (error: Error) => void;
  readonly keyPrefix?: string;
  /** The replay store's deadline (default {@link PATIENT_MS}). */
  readonly commandTimeoutMs?: number;
  /** Another instance's connection, to share (default: a new one). */
  readonly connection?: RedisConnection;
}

async function instance(options: InstanceOptions = {}) {
  const { onerror, keyPrefix = `test:${redis.port}:` } = options;
  let connection = options.connection;
  if (connection === undefined) {
    connection = await connectRedis(redis.url, { commandTimeoutMs: PATIENT_MS });
    connections.push(connection);
    await claimReplayEpoch(connection, keyPrefix);
  }
  const log = captureLog();
  const store = createRedisReplayStore(connection, {
    keyPrefix,
    commandTimeoutMs: options.commandTimeoutMs ?? PATIENT_MS,
    ...(onerror && { onerror }),
  });
  return {
    sealer: createSealer('refund-desk', { keys: [KEY_A], replayStore: store, sink: log.sink }),
    log,
    connection,
  };
}

describe('createRedisReplayStore', () => {
  it('refuses a token on every other instance once one instance consumed it', async () => {
    const [a, b, c] = [await instance(), await instance(), await instance()];
    const token = await a.sealer.seal(bytes('final round'), BINDING);
    expect(await b.sealer.open(token, BINDING)).toEqual(bytes('final round'));
    for (const other of [a, b, c]) {
      expect(wireOf(await protocolRejection(other.sealer.open(token, BINDING)))).toEqual(FROZEN);
      expect(other.log.lines.at(-1)).toBe('requestState rejected on tools/call: replayed');
    }
  });

  it('still refuses after every instance restarted with the same keys (new connections, new sealers)', async () => {
    const before = await instance();
    const token = await before.sealer.seal(bytes('s'), BINDING);
    await before.sealer.open(token, BINDING);
    await before.connection.destroy();
    const after = await instance();
    await protocolRejection(after.sealer.open(token, BINDING));
    expect(after.log.lines).toEqual(['requestState rejected on tools/call: replayed']);
  });

  it('keys expire at the end of the validity window (ttl + skew)', async () => {
    const connection = await connectRedis(redis.url);
    connections.push(connection);
    await claimReplayEpoch(connection, 'ttl:');
    const store = createRedisReplayStore(connection, { keyPrefix: 'ttl:' });
    const expiresAt = Date.now() + 60_000;
    expect(await store.consume('id-1', expiresAt)).toBe(true);
    expect(await store.consume('id-1', expiresAt)).toBe(false);
    const at = await connection.pExpireTime('{ttl:}id-1');
    expect(at).toBe(expiresAt);
  });

  it('fails the round closed with a clear reported error when Redis is gone; back empty, it refuses the old token and takes new ones', async () => {
    const errors: Error[] = [];
    const a = await instance({ onerror: (error) => errors.push(error), keyPrefix: `gone:${crypto.randomUUID()}:` });
    const token = await a.sealer.seal(bytes('s'), BINDING);
    await redis.stop(true);
    try {
      const error = await protocolRejection(a.sealer.open(token, BINDING));
      expect(wireOf(error)).toEqual({ code: -32603, message: 'Internal error', data: undefined });
      expect(a.log.lines).toEqual(['requestState replay check failed on tools/call: replay_store_error']);
      expect(errors[0]?.message).toMatch(/^Replay check failed: Redis did not answer \(.+\)\. The round is refused/);
    } finally {
      await redis.restart();
    }
    await expect.poll(async () => a.connection.isReady, { timeout: 10_000 }).toBe(true);
    // Back without its data (no persistence): the token sealed before is refused, never reopened …
    await protocolRejection(a.sealer.open(token, BINDING));
    expect(errors.at(-1)?.message).toMatch(/^Replay check: Redis lost its replay records/);
    // … and a call started after the new epoch (1 s margin) passes.
    await new Promise((wake) => setTimeout(wake, 1_100));
    const fresh = await a.sealer.seal(bytes('t'), BINDING);
    expect(await a.sealer.open(fresh, BINDING)).toEqual(bytes('t'));
  });
});

describe('a Redis that stops answering', () => {
  it('fails the round closed within the command deadline instead of hanging; the token stays used', async () => {
    const errors: Error[] = [];
    const a = await instance();
    // On a's connection, a store with a short deadline: the one that meets the frozen Redis. Its
    // SET stays queued on that connection, so a's checks after the thaw run behind it.
    const frozen = await instance({
      onerror: (error) => errors.push(error),
      commandTimeoutMs: 500,
      connection: a.connection,
    });
    const token = await a.sealer.seal(bytes('s'), BINDING);
    redis.pause();
    try {
      const error = await protocolRejection(frozen.sealer.open(token, BINDING));
      expect(wireOf(error)).toEqual({ code: -32603, message: 'Internal error', data: undefined });
      expect(errors.map((failure) => failure.message)).toEqual([
        'Replay check failed: Redis did not answer (no answer within 500 ms). The round is refused (its token may already count as used); start the call again once Redis answers.',
      ]);
    } finally {
      redis.resume();
    }
    // The timed-out SET reached Redis once thawed: that token stays used (never accepted twice) …
    await protocolRejection(a.sealer.open(token, BINDING));
    expect(a.log.lines.at(-1)).toBe('requestState rejected on tools/call: replayed');
    // … and a new call's token passes.
    const fresh = await a.sealer.seal(bytes('t'), BINDING);
    expect(await a.sealer.open(fresh, BINDING)).toEqual(bytes('t'));
  });
});

describe('connectRedis', () => {
  it('names the URL when Redis cannot be reached', async () => {
    const port = await freePort();
    await expect(connectRedis(`redis://:secret@127.0.0.1:${port}`, { connectTimeoutMs: 1_000 })).rejects.toThrow(
      `Cannot connect to Redis at redis://:***@127.0.0.1:${port}`,
    );
  });
});
