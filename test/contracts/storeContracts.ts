/**
 * What every store backend must do, as suites a backend runs: the replay guard (`ReplayStore`),
 * task persistence (`TaskStore`) and legacy sessions shared across a fleet (`LegacySessionFleet`).
 * The memory and Redis backends run them in stores.test.ts; a new backend adds itself there and
 * passes the same checks.
 */
import { describe, expect, it } from 'vitest';

import type { FleetMessage, LegacySessionFleet } from 'mcp-resolve/contracts';
import type { ReplayStore } from 'mcp-resolve/contracts';
import type { TaskRecord, TaskStore } from 'mcp-resolve/contracts';

const pause = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/** The replay guard: each token id is accepted once until it expires, also under concurrent use. */
export function replayStoreContract(name: string, make: () => Promise<ReplayStore>): void {
  describe(`ReplayStore contract: ${name}`, () => {
    it('accepts a token id once, then refuses it; ids are independent', async () => {
      const store = await make();
      const expiresAt = Date.now() + 60_000;
      const issuedAt = Date.now();
      expect(await store.consume('t-1', expiresAt, issuedAt)).toBe(true);
      expect(await store.consume('t-1', expiresAt, issuedAt)).toBe(false);
      expect(await store.consume('t-2', expiresAt, issuedAt)).toBe(true);
    });

    it('accepts exactly one of twenty concurrent uses of one id', async () => {
      const store = await make();
      const expiresAt = Date.now() + 60_000;
      const issuedAt = Date.now();
      const consume = async (): Promise<boolean> => store.consume('race', expiresAt, issuedAt);
      const outcomes = await Promise.all(Array.from({ length: 20 }, consume));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
    });
  });
}

/** A task record as the runner writes it, expiring at `expiresAt`. */
export function taskRecord(taskId: string, expiresAt = Date.now() + 60_000): TaskRecord {
  const now = new Date().toISOString();
  return {
    taskId,
    revision: 0,
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: expiresAt - Date.now(),
    expiresAt,
    pollIntervalMs: 100,
    principal: 'alice',
    call: { tool: 'approve', arguments: { amount: 1 } },
    pending: {},
    answers: {},
    bodyStarted: false,
  };
}

/** Task persistence: what is created is read back whole; replace is a compare-and-set; expiry forgets. */
export function taskStoreContract(name: string, make: () => Promise<TaskStore>): void {
  describe(`TaskStore contract: ${name}`, () => {
    it('reads back what was created, and nothing for an unknown id', async () => {
      const store = await make();
      const record = taskRecord('task-1');
      await store.create(record);
      expect(await store.get('task-1')).toEqual(record);
      expect(await store.get('task-unknown')).toBeUndefined();
    });

    it('replaces only at the expected revision', async () => {
      const store = await make();
      const record = taskRecord('task-2');
      await store.create(record);
      const next: TaskRecord = { ...record, revision: 1, status: 'completed', result: { content: [] } };
      expect(await store.replace(next, 0)).toBe(true);
      expect(await store.replace({ ...record, revision: 1, status: 'failed' }, 0)).toBe(false);
      expect(await store.get('task-2')).toEqual(next);
    });

    it('lets one of ten concurrent replaces at the same revision win', async () => {
      const store = await make();
      const record = taskRecord('task-3');
      await store.create(record);
      const wins = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          store.replace({ ...record, revision: 1, statusMessage: `writer ${index}` }, 0),
        ),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect((await store.get('task-3'))?.revision).toBe(1);
    });

    it('forgets a task once its expiresAt has passed', async () => {
      const store = await make();
      await store.create(taskRecord('task-4', Date.now() + 150));
      await pause(400);
      expect(await store.get('task-4')).toBeUndefined();
    });
  });
}

/** Two members of one fleet (two instances sharing the backend). */
export interface FleetPair {
  readonly a: LegacySessionFleet;
  readonly b: LegacySessionFleet;
}

/** Shared legacy sessions: records with an idle expiry, the stream holder, and relays that say when nobody listens. */
export function sessionFleetContract(name: string, make: () => Promise<FleetPair>): void {
  describe(`LegacySessionFleet contract: ${name}`, () => {
    const record = { initialize: { protocolVersion: '2025-11-25', capabilities: {} } };

    it('shares a session record between members until it is removed', async () => {
      const { a, b } = await make();
      await a.save('s-1', record, 60_000);
      expect(await b.load('s-1', 60_000)).toEqual(record);
      expect(await b.load('s-unknown', 60_000)).toBeUndefined();
      await b.remove('s-1');
      expect(await a.load('s-1', 60_000)).toBeUndefined();
    });

    it('forgets an idle record after its lifetime; touch restarts the clock', async () => {
      const { a, b } = await make();
      // Both saved for 1.5 s; only the touch, right away, keeps `kept` (for a minute). A slow
      // machine only lengthens the pause, so `idle` is surely gone after it and `kept` still there.
      await a.save('idle', record, 1_500);
      await a.save('kept', record, 1_500);
      await b.touch('kept', 60_000);
      await pause(1_700);
      expect(await b.load('idle', 60_000)).toBeUndefined();
      expect(await b.load('kept', 60_000)).toEqual(record);
    });

    it('refuses a save past a limit, counting the live records of every member; a removed record frees its share', async () => {
      const { a, b } = await make();
      const limits = {
        client: 'c1',
        maxLegacySessions: 2,
        legacySessionBudgetHeldBytes: 1_000_000,
        maxLegacySessionsPerClient: 10,
      };
      expect(await a.save('n-1', record, 60_000, limits)).toBeUndefined();
      expect(await b.save('n-2', record, 60_000, { ...limits, client: 'c2' })).toBeUndefined();
      expect(await a.save('n-3', record, 60_000, { ...limits, client: 'c3' })).toEqual({
        limit: 'maxLegacySessions',
        retryAfterMs: expect.any(Number),
      });
      expect(await b.load('n-3', 60_000)).toBeUndefined();
      expect(
        await a.save('n-4', record, 60_000, {
          ...limits,
          client: 'c1',
          maxLegacySessions: 10,
          maxLegacySessionsPerClient: 1,
        }),
      ).toEqual({ limit: 'maxLegacySessionsPerClient', retryAfterMs: expect.any(Number) });
      const size = JSON.stringify(record).length;
      expect(
        await a.save('n-5', record, 60_000, {
          ...limits,
          client: 'c5',
          maxLegacySessions: 10,
          legacySessionBudgetHeldBytes: 3 * size - 1,
        }),
      ).toEqual({ limit: 'legacySessionBudgetHeldBytes', retryAfterMs: expect.any(Number) });
      await b.remove('n-1');
      expect(await a.save('n-3', record, 60_000, { ...limits, client: 'c3' })).toBeUndefined();
      expect(
        await b.save('n-6', record, 60_000, {
          ...limits,
          client: 'c1',
          maxLegacySessions: 10,
          maxLegacySessionsPerClient: 1,
        }),
      ).toBeUndefined();
    });

    it("counts a record saved for client '' (a proxy's, no client) against no client, and against the count", async () => {
      const { a, b } = await make();
      const limits = {
        client: '',
        maxLegacySessions: 3,
        legacySessionBudgetHeldBytes: 1_000_000,
        maxLegacySessionsPerClient: 1,
      };
      expect(await a.save('p-1', record, 60_000, limits)).toBeUndefined();
      expect(await b.save('p-2', record, 60_000, limits)).toBeUndefined();
      expect(await a.save('p-3', record, 60_000, { ...limits, client: 'c1' })).toBeUndefined();
      expect(await b.save('p-4', record, 60_000, limits)).toEqual({
        limit: 'maxLegacySessions',
        retryAfterMs: expect.any(Number),
      });
    });

    it('releases the share of an expired record, and keeps the share of a record kept alive by load and touch', async () => {
      const { a, b } = await make();
      const limits = {
        client: 'c',
        maxLegacySessions: 1,
        legacySessionBudgetHeldBytes: 1_000_000,
        maxLegacySessionsPerClient: 1,
      };
      expect(await a.save('kept', record, 1_500, limits)).toBeUndefined();
      await b.touch('kept', 60_000);
      await pause(1_700);
      expect(await b.load('kept', 60_000)).toEqual(record); // past the lifetime it was saved with: alive thanks to touch
      expect((await a.save('next', record, 400, limits))?.limit).toBe('maxLegacySessionsPerClient');
      // Touched for a moment, then nobody touches it any more: once it has expired, its share is released.
      await b.touch('kept', 200);
      await expect
        .poll(() => a.save('next', record, 60_000, limits), { timeout: 20_000, interval: 100 })
        .toBeUndefined();
    });

    it('names the member holding a session stream', async () => {
      const { a, b } = await make();
      expect(await b.streamHolder('s-2')).toBeUndefined();
      await a.claimStream('s-2', 60_000);
      expect(await b.streamHolder('s-2')).toBe(a.instanceId);
    });

    it('hands a waiting push to one taker, only while its session exists', async () => {
      const { a, b } = await make();
      await a.save('s-3', record, 60_000);
      await a.awaitAnswer('s-3', `mcpr:${a.instanceId}:1`, { method: 'elicitation/create' }, 60_000);
      await a.awaitAnswer('s-gone', `mcpr:${a.instanceId}:1`, { method: 'elicitation/create' }, 60_000);
      expect(await b.takeAnswer('s-3', `mcpr:${a.instanceId}:2`)).toBeUndefined();
      expect(await b.takeAnswer('s-other', `mcpr:${a.instanceId}:1`)).toBeUndefined();
      expect(await b.takeAnswer('s-gone', `mcpr:${a.instanceId}:1`)).toBeUndefined();
      expect(await b.takeAnswer('s-3', `mcpr:${a.instanceId}:1`)).toEqual({ method: 'elicitation/create' });
      expect(await a.takeAnswer('s-3', `mcpr:${a.instanceId}:1`)).toBeUndefined();
    });

    it('hands a push again to the named take that took it (its reply lost), and to no other', async () => {
      const { a, b } = await make();
      const push = `mcpr:${a.instanceId}:1`;
      await a.save('s-5', record, 60_000);
      await a.awaitAnswer('s-5', push, { method: 'elicitation/create' }, 60_000);
      // Names are any strings: this one has a space, and another take's name is its first word.
      expect(await b.takeAnswer('s-5', push, 'take one')).toEqual({ method: 'elicitation/create' });
      // The same take tried again, as when its first reply came after its deadline: the same push.
      expect(await b.takeAnswer('s-5', push, 'take one')).toEqual({ method: 'elicitation/create' });
      expect(await a.takeAnswer('s-5', push, 'take one')).toEqual({ method: 'elicitation/create' });
      expect(await b.takeAnswer('s-5', push, 'take')).toBeUndefined();
      expect(await b.takeAnswer('s-5', push, 'take-2')).toBeUndefined();
      expect(await b.takeAnswer('s-5', push)).toBeUndefined();
      expect(await a.answerAwaited('s-5', push)).toBe(false);
    });

    it('says whether a push still waits, without taking it', async () => {
      const { a, b } = await make();
      await a.save('s-4', record, 60_000);
      await a.awaitAnswer('s-4', `mcpr:${a.instanceId}:1`, { method: 'elicitation/create' }, 60_000);
      expect(await a.answerAwaited('s-4', `mcpr:${a.instanceId}:1`)).toBe(true);
      expect(await a.answerAwaited('s-4', `mcpr:${a.instanceId}:2`)).toBe(false);
      expect(await b.takeAnswer('s-4', `mcpr:${a.instanceId}:1`)).toEqual({ method: 'elicitation/create' });
      expect(await a.answerAwaited('s-4', `mcpr:${a.instanceId}:1`)).toBe(false);
    });

    it('says whether another member listens', async () => {
      const { a, b } = await make();
      expect(await b.listening(a.instanceId)).toBe(false);
      const stop = await a.subscribe(() => {});
      expect(await b.listening(a.instanceId)).toBe(true);
      expect(await b.listening()).toBe(false);
      await stop();
      expect(await b.listening(a.instanceId)).toBe(false);
    });

    it('relays to a listening member, broadcasts to all, and rejects a send nobody receives', async () => {
      const { a, b } = await make();
      const atA: FleetMessage[] = [];
      const atB: FleetMessage[] = [];
      expect(await a.listening()).toBe(false);
      const stopA = await a.subscribe((message) => atA.push(message));
      const stopB = await b.subscribe((message) => atB.push(message));
      expect(await a.listening()).toBe(true);
      await b.send(a.instanceId, { kind: 'ended', sessionId: 'to-a' });
      await b.broadcast({ kind: 'notify', notification: { kind: 'toolsChanged' } });
      await expect.poll(() => atA.length).toBe(2);
      await expect.poll(() => atB.length).toBe(1);
      // A send and a broadcast travel on two channels (on a Redis Cluster, two shards): no order between them.
      expect(atA).toHaveLength(2);
      expect(atA).toEqual(
        expect.arrayContaining([
          { kind: 'ended', sessionId: 'to-a' },
          { kind: 'notify', notification: { kind: 'toolsChanged' } },
        ]),
      );
      await stopA();
      expect(await a.listening()).toBe(false);
      await expect(b.send(a.instanceId, { kind: 'ended', sessionId: 'lost' })).rejects.toThrow(
        `no instance ${JSON.stringify(a.instanceId)} is listening`,
      );
      await stopB();
    });
  });
}
