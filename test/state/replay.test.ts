import { describe, expect, it } from 'vitest';

import { McpResolveError } from '../../src/errors.js';
import type { ReplayStore } from '../../src/contracts/index.js';
import { createMemoryReplayStore } from '../../src/contracts/index.js';
import { createSealer } from '../../src/state/sealer.js';
import { DEFAULT_MAX_REPLAY_ENTRIES } from '../../src/state/replay.js';
import {
  BINDING,
  KEY_A,
  T0,
  asToken,
  bytes,
  captureLog,
  expectRejected,
  fixture,
  protocolRejection,
  testClock,
  tokenBytes,
  wireOf,
} from './helpers.js';

describe('replay guard (on by default)', () => {
  it('refuses the second use of a token', async () => {
    const { sealer, log } = fixture();
    const token = await sealer.seal(bytes('final round'), BINDING);
    expect(await sealer.open(token, BINDING)).toEqual(bytes('final round'));
    await expectRejected(sealer.open(token, BINDING), log, 'replayed');
    await expectRejected(sealer.open(token, BINDING), log, 'replayed');
  });

  it('can be turned off, allowing reuse within the TTL', async () => {
    const { sealer } = fixture({ replayStore: false });
    const token = await sealer.seal(bytes('s'), BINDING);
    await sealer.open(token, BINDING);
    expect(await sealer.open(token, BINDING)).toEqual(bytes('s'));
  });

  it('without a test clock uses one store per process, so a fresh sealer (or server instance) still refuses a replay', async () => {
    const log = captureLog();
    const first = createSealer('refund-desk', { keys: [KEY_A], sink: log.sink });
    const second = createSealer('refund-desk', { keys: [KEY_A], sink: log.sink });
    const token = await first.seal(bytes('s'), BINDING);
    await first.open(token, BINDING);
    await expectRejected(second.open(token, BINDING), log, 'replayed');
  });

  it('hands a custom store the nonce-derived token id and the end of the validity window', async () => {
    const calls: Array<[string, number]> = [];
    const store: ReplayStore = {
      consume: (tokenId, expiresAt) => {
        calls.push([tokenId, expiresAt]);
        return true;
      },
    };
    const { sealer } = fixture({ replayStore: store, ttlMs: 60_000, skewMs: 5_000 });
    const first = await sealer.seal(bytes('s'), BINDING);
    const second = await sealer.seal(bytes('s'), BINDING);
    await sealer.open(first, BINDING);
    await sealer.open(second, BINDING);
    expect(calls).toEqual([
      [tokenBytes(first).subarray(11, 23).toString('base64url'), T0 + 65_000],
      [tokenBytes(second).subarray(11, 23).toString('base64url'), T0 + 65_000],
    ]);
    expect(calls[0]?.[0]).not.toBe(calls[1]?.[0]);
  });

  it('shares consumption across a fleet through a shared (async) store', async () => {
    const shared = createMemoryReplayStore({ now: () => T0 });
    const asyncShared: ReplayStore = { consume: async (id, expiresAt) => shared.consume(id, expiresAt) };
    const one = fixture({ replayStore: asyncShared }, 'refund-desk');
    const two = fixture({ replayStore: asyncShared }, 'refund-desk');
    const token = await one.sealer.seal(bytes('s'), BINDING);
    await one.sealer.open(token, BINDING);
    await expectRejected(two.sealer.open(token, BINDING), two.log, 'replayed');
  });

  it('consumes only tokens that passed every other check', async () => {
    let consumed = 0;
    const store: ReplayStore = { consume: () => (++consumed, true) };
    const { sealer, clock, log } = fixture({ replayStore: store });
    const token = await sealer.seal(bytes('s'), BINDING);
    const flipped = tokenBytes(token);
    flipped[40] = (flipped[40] ?? 0) ^ 1;
    await expectRejected(sealer.open(asToken(flipped), BINDING), log, 'tampered');
    await expectRejected(sealer.open(token, { ...BINDING, target: 'other' }), log, 'binding_mismatch');
    await expectRejected(sealer.open(123, BINDING), log, 'not_a_string');
    clock.advance(3_600_000);
    await expectRejected(sealer.open(token, BINDING), log, 'expired');
    expect(consumed).toBe(0);
  });

  it('turns a failing or misbehaving store into a bare -32603, logged as a replay-check failure', async () => {
    for (const consume of [
      () => {
        throw new Error('redis down at 10.0.0.7');
      },
      async () => Promise.reject(new Error('timeout')),
      () => 'OK',
    ]) {
      // @ts-expect-error - a JavaScript store can return anything
      const { sealer, log } = fixture({ replayStore: { consume } });
      const token = await sealer.seal(bytes('s'), BINDING);
      const error = await protocolRejection(sealer.open(token, BINDING));
      expect(wireOf(error)).toEqual({ code: -32603, message: 'Internal error', data: undefined });
      expect(log.lines).toEqual(['requestState replay check failed on tools/call: replay_store_error']);
    }
  });
});

describe('createMemoryReplayStore', () => {
  it('reports first use, then replay until the entry expires', () => {
    const clock = testClock();
    const store = createMemoryReplayStore({ now: clock.now });
    expect(store.consume('a', T0 + 1000)).toBe(true);
    expect(store.consume('a', T0 + 1000)).toBe(false);
    clock.set(T0 + 999);
    expect(store.consume('a', T0 + 1000)).toBe(false);
    clock.set(T0 + 1000);
    expect(store.consume('a', T0 + 5000)).toBe(true);
    expect(store.consume('a', T0 + 5000)).toBe(false);
  });

  it('evicts expired entries, so memory follows the validity window, not the uptime', () => {
    const clock = testClock();
    const store = createMemoryReplayStore({ now: clock.now });
    for (let index = 0; index < 1000; index++) store.consume(`early-${index}`, T0 + 10_000);
    expect(store.size).toBe(1000);
    clock.set(T0 + 10_000);
    store.consume('late', T0 + 20_000);
    expect(store.size).toBe(1);
  });

  it('evicts expired entries that sit behind a longer-lived one once it is full', () => {
    const clock = testClock();
    const store = createMemoryReplayStore({ now: clock.now, maxEntries: 10 });
    store.consume('long', T0 + 1_000_000);
    for (let index = 0; index < 9; index++) store.consume(`short-${index}`, T0 + 1000);
    clock.set(T0 + 2000);
    store.consume('new', T0 + 5000);
    expect(store.size).toBe(2);
    expect(store.consume('long', T0 + 1_000_000)).toBe(false);
  });

  it('never grows past maxEntries, forgetting the oldest first', () => {
    const store = createMemoryReplayStore({ now: () => T0, maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) expect(store.consume(id, T0 + 60_000)).toBe(true);
    expect(store.size).toBe(3);
    expect(store.consume('d', T0 + 60_000)).toBe(false);
    expect(store.consume('a', T0 + 60_000)).toBe(true); // forgotten early: the documented cost of the cap
  });

  it('sweeps an entry that reached the front when the cap evicted the one before it', () => {
    const clock = testClock();
    const store = createMemoryReplayStore({ now: clock.now, maxEntries: 3 });
    store.consume('a', T0 + 100);
    store.consume('b', T0 + 10);
    store.consume('c', T0 + 200);
    store.consume('d', T0 + 250); // full: 'a' goes, 'b' (expiring first) is now the front
    expect(store.size).toBe(3);
    clock.set(T0 + 50);
    expect(store.consume('past', T0 + 20)).toBe(true);
    expect(store.size).toBe(2); // 'b' expired at +10 and was swept, though 'a' (+100) was the front before
  });

  it('sweeps from the front again after it emptied and filled up', () => {
    const clock = testClock();
    const store = createMemoryReplayStore({ now: clock.now });
    store.consume('a', T0 + 10);
    clock.set(T0 + 20);
    store.consume('b', T0 + 30); // sweeps 'a': empty, then 'b' is the front
    expect(store.size).toBe(1);
    clock.set(T0 + 40);
    store.consume('c', T0 + 100);
    expect(store.size).toBe(1);
  });

  it('does not remember ids that are already past their expiry', () => {
    const store = createMemoryReplayStore({ now: () => T0 });
    expect(store.consume('old', T0)).toBe(true);
    expect(store.size).toBe(0);
  });

  it('defaults to a cap of one million and validates it', () => {
    expect(DEFAULT_MAX_REPLAY_ENTRIES).toBe(1_000_000);
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => createMemoryReplayStore({ maxEntries: bad })).toThrow(McpResolveError);
    }
    expect(() => createMemoryReplayStore({ maxEntries: 0 })).toThrow(
      'createMemoryReplayStore(): options.maxEntries must be a positive integer (got 0).',
    );
  });
});
