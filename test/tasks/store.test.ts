/** The in-memory task store: compare-and-set on the revision, copies in and out, expiry on its clock. */
import { describe, expect, it } from 'vitest';

import type { TaskRecord } from 'mcp-resolve/contracts';
import { createMemoryTaskStore } from 'mcp-resolve/contracts';

function record(taskId: string, expiresAt: number): TaskRecord {
  return {
    taskId,
    revision: 0,
    status: 'working',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUpdatedAt: '2026-01-01T00:00:00.000Z',
    ttlMs: 1_000,
    expiresAt,
    pollIntervalMs: 100,
    call: { tool: 't', arguments: {} },
    pending: {},
    answers: {},
    bodyStarted: false,
  };
}

describe('createMemoryTaskStore', () => {
  it('replaces a task only at the expected revision, so one of two racing writers wins', async () => {
    const store = createMemoryTaskStore({ now: () => 0 });
    await store.create(record('a', 1_000));
    const first = { ...record('a', 1_000), revision: 1, bodyStarted: true };
    const second = { ...record('a', 1_000), revision: 1, status: 'cancelled' as const };
    expect(await store.replace(first, 0)).toBe(true);
    expect(await store.replace(second, 0)).toBe(false);
    expect(await store.get('a')).toMatchObject({ revision: 1, bodyStarted: true, status: 'working' });
  });

  it('hands out copies: changing a returned record changes nothing stored', async () => {
    const store = createMemoryTaskStore({ now: () => 0 });
    await store.create(record('a', 1_000));
    const read = await store.get('a');
    if (read === undefined) throw new Error('missing');
    (read.answers as Record<string, unknown>)['x'] = { digest: 'd', response: 1 };
    expect((await store.get('a'))?.answers).toEqual({});
  });

  it('forgets a task at its expiresAt, for reads and writes', async () => {
    let now = 0;
    const store = createMemoryTaskStore({ now: () => now });
    await store.create(record('a', 1_000));
    now = 999;
    expect(await store.get('a')).toBeDefined();
    now = 1_000;
    expect(await store.get('a')).toBeUndefined();
    expect(await store.replace({ ...record('a', 5_000), revision: 1 }, 0)).toBe(false);
  });
});
