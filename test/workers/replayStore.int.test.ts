/**
 * The replay guard on Durable Objects under a real workerd (in-memory Durable Object storage):
 * single use under many concurrent checks, across shards, and expiry swept by the object's alarm.
 * The store contract suite runs against it in test/contracts/stores.int.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { useWorkerdReplayGuard } from '../fixtures/workerdReplayGuard.js';

const guard = useWorkerdReplayGuard();
let ids = 0;
const fresh = (label: string) => `${label}-${++ids}-${Date.now()}`;

describe('createDurableObjectReplayStore under workerd', () => {
  it('accepts exactly one of 200 concurrent checks of one id', async () => {
    const store = guard.store();
    const id = fresh('race');
    const expiresAt = Date.now() + 60_000;
    const outcomes = await Promise.all(Array.from({ length: 200 }, async () => store.consume(id, expiresAt)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });

  it('accepts 100 ids raced 5 times each exactly once each, spread over the shards', async () => {
    const store = guard.store(4);
    const expiresAt = Date.now() + 60_000;
    const batch = Array.from({ length: 100 }, () => fresh('spread'));
    const outcomes = await Promise.all(
      batch.flatMap((id) => Array.from({ length: 5 }, async () => ({ id, first: await store.consume(id, expiresAt) }))),
    );
    const wins = new Map<string, number>();
    for (const { id, first } of outcomes) if (first) wins.set(id, (wins.get(id) ?? 0) + 1);
    expect(wins.size).toBe(100);
    expect([...wins.values()].every((count) => count === 1)).toBe(true);
  });

  it('forgets an id once it expired: the alarm deletes its keys, a later one stays', async () => {
    const store = guard.store(1);
    const [soon, later] = [fresh('soon'), fresh('later')];
    // Three seconds: the keys are read back before the alarm fires, on a slow machine too.
    expect(await store.consume(soon, Date.now() + 3_000)).toBe(true);
    expect(await store.consume(later, Date.now() + 600_000)).toBe(true);
    const stored = await guard.keys();
    expect(stored.filter((key) => key.endsWith(soon))).toHaveLength(2);
    expect(stored.filter((key) => key.endsWith(later))).toHaveLength(2);
    const deadline = Date.now() + 20_000;
    while ((await guard.keys()).some((key) => key.endsWith(soon)) && Date.now() < deadline) {
      await new Promise((wake) => setTimeout(wake, 100));
    }
    const left = await guard.keys();
    expect(left.filter((key) => key.endsWith(soon))).toEqual([]);
    expect(left.filter((key) => key.endsWith(later))).toHaveLength(2);
  });
});
