/**
 * Tasks that outlive their instance, against a real redis-server and HTTP instances: instance A
 * dies mid-body (its body never ends, its HTTP server is closed and its store cut off, so its
 * heartbeat stops) and B, polled by the client, resumes the task and completes it without running
 * A's recorded step again; two instances finding the same lost task at once: one wins.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { McpResolveServer } from 'mcp-resolve';
import type { TaskRecord, TaskStore } from 'mcp-resolve/contracts';
import { journaled } from 'mcp-resolve/mrtr';
import { serveHttp } from 'mcp-resolve/node';
import { createRedisTaskStore } from 'mcp-resolve/redis';
import { getTask, taskOf } from 'mcp-resolve/client';
import { connectHttp } from 'mcp-resolve/testing';

import { onCleanup, textOf } from '../resolvers/helpers.js';
import { useRedisServer } from '../fixtures/redisServer.js';
import { orphanTask, racingStore, TASK_CLIENT, until } from './helpers.js';

const redisServer = useRedisServer();

const LEASE_MS = 300;

/** What every instance did, as if each were its own process. */
const fleet = { labels: 0, bodies: [] as string[] };

/** A store that stops answering once `cut` is set: the view of a process that died. */
function severable(inner: TaskStore): TaskStore & { cut: boolean } {
  const store = {
    cut: false,
    create: (record: TaskRecord) => (store.cut ? Promise.reject(new Error('dead')) : inner.create(record)),
    get: (taskId: string) => (store.cut ? Promise.reject(new Error('dead')) : inner.get(taskId)),
    replace: (record: TaskRecord, revision: number) =>
      store.cut ? Promise.reject(new Error('dead')) : inner.replace(record, revision),
  };
  return store;
}

/** One HTTP instance named `name` over `store`; its `ship` body never ends when `hangs`. */
async function instance(name: string, store: TaskStore, hangs = false) {
  const server = new McpResolveServer(
    { name: `ship-${name}`, version: '1' },
    { tasks: { store, leaseMs: LEASE_MS } },
  ).tool(
    'ship',
    { input: { order: z.string() }, task: 'required' },
    journaled<{ order: string }>(async ({ order }, ctx) => {
      fleet.bodies.push(name);
      const label = await ctx.step('label', () => {
        fleet.labels++;
        return `label-${order}`;
      });
      if (hangs) await new Promise<never>(() => undefined);
      return `${label} shipped on ${name}`;
    }),
  );
  const handle = await serveHttp(server, { port: 0 });
  onCleanup(() => handle.close());
  const client = await connectHttp(handle.url, { era: 'modern', capabilities: TASK_CLIENT });
  onCleanup(() => client.close());
  return { client: client.client, close: () => handle.close() };
}

const redisStore = async (prefix: string) => createRedisTaskStore(await redisServer.connect(), { keyPrefix: prefix });

describe('a task whose instance died, on a real Redis', () => {
  it('is resumed by the instance the client polls and completes there, its recorded step not run again', async () => {
    fleet.labels = 0;
    fleet.bodies = [];
    const prefix = `resume:${crypto.randomUUID()}:`;
    const storeA = severable(await redisStore(prefix));
    const storeB = await redisStore(prefix);
    const a = await instance('A', storeA, true);
    const b = await instance('B', storeB);
    const taskId = taskOf(await a.client.callTool({ name: 'ship', arguments: { order: 'ORD-9' } }))?.taskId ?? '';
    await expect.poll(async () => (await storeB.get(taskId))?.steps).toEqual({ label: ['label-ORD-9'] });

    // A dies mid-body: its HTTP server goes, and it writes nothing more (no heartbeat).
    await a.close();
    storeA.cut = true;
    const done = await until(b.client, taskId, 'completed');
    expect(done.status).toBe('completed');
    expect(textOf(done.result ?? { content: [] })).toBe('label-ORD-9 shipped on B');
    expect(fleet.bodies).toEqual(['A', 'B']);
    expect(fleet.labels).toBe(1);
    expect(await storeB.get(taskId)).toMatchObject({ status: 'completed', resumes: 1 });
  });

  it('lets exactly one of two instances resuming it at once win; both clients see the one outcome', async () => {
    fleet.labels = 0;
    fleet.bodies = [];
    const prefix = `race:${crypto.randomUUID()}:`;
    const redis = await redisStore(prefix);
    const orphan = orphanTask('ship', { order: 'ORD-10' }, Date.now() - 10 * LEASE_MS);
    await redis.create(orphan);
    const racing = racingStore(redis);
    const b = await instance('B', racing);
    const c = await instance('C', racing);
    const seen = await Promise.all([getTask(b.client, orphan.taskId), getTask(c.client, orphan.taskId)]);
    expect(racing.outcomes).toEqual([true, false]);
    expect(seen.map((task) => task.status)).toEqual(['working', 'working']);
    const [onB, onC] = await Promise.all([
      until(b.client, orphan.taskId, 'completed'),
      until(c.client, orphan.taskId, 'completed'),
    ]);
    expect(onB.result).toEqual(onC.result);
    expect(fleet.bodies).toHaveLength(1);
    expect(fleet.labels).toBe(1);
    expect(await redis.get(orphan.taskId)).toMatchObject({ status: 'completed', resumes: 1 });
  });
});
