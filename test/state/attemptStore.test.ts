/** The in-memory attempt store: windows on an injected clock, and its bound, which never evicts a live counter. */
import { describe, expect, it } from 'vitest';

import { createMemoryAttemptStore } from '../../src/state/attemptStore.js';

describe('createMemoryAttemptStore', () => {
  it('counts within a window, takes back, and starts again once the window ends', async () => {
    let now = 0;
    const store = createMemoryAttemptStore({ now: () => now });
    expect(await store.count('k', 1_000)).toEqual({ count: 1, retryMs: 1_000 });
    now = 400;
    expect(await store.count('k', 1_000)).toEqual({ count: 2, retryMs: 600 });
    await store.uncount('k');
    expect(await store.count('k', 1_000)).toEqual({ count: 2, retryMs: 600 });
    now = 1_000;
    expect(await store.count('k', 1_000)).toEqual({ count: 1, retryMs: 1_000 });
  });

  it('when full of live counters, keeps them all and counts a new key as every attempt spent', async () => {
    let now = 0;
    const store = createMemoryAttemptStore({ now: () => now, maxEntries: 2 });
    await store.count('mine', 1_000);
    now = 100;
    await store.count('flood-1', 1_000);
    expect(await store.count('flood-2', 1_000)).toEqual({ count: Number.POSITIVE_INFINITY, retryMs: 900 });
    // The attacker's own counter is still there: flooding did not give its attempts back.
    expect(await store.count('mine', 1_000)).toEqual({ count: 2, retryMs: 900 });
    // An expired counter makes room.
    now = 1_000;
    expect(await store.count('flood-2', 1_000)).toEqual({ count: 1, retryMs: 1_000 });
  });

  it('refuses a bad maxEntries with an exact message', () => {
    expect(() => createMemoryAttemptStore({ maxEntries: 0 })).toThrow(
      'createMemoryAttemptStore(): options.maxEntries must be a positive integer (got 0).',
    );
  });
});
