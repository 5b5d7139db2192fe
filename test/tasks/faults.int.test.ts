/**
 * Tasks under faults, against a real redis-server: the cross-principal rule across instances, a
 * cancel racing the last answer (the body runs at most once), a body whose process died (resumed
 * once its lease runs out, while a live body's heartbeat keeps it running), and 10,000
 * abandoned tasks whose memory comes back (in memory and in Redis).
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import type { McpResolveServerOptions } from 'mcp-resolve';
import type { TaskRecord } from 'mcp-resolve/contracts';
import { createMemoryTaskStore } from 'mcp-resolve/contracts';
import { elicit, McpResolveServer, resolver } from 'mcp-resolve';
import { serveHttp } from 'mcp-resolve/node';
import type { RedisConnection } from 'mcp-resolve/redis';
import { createRedisTaskStore } from 'mcp-resolve/redis';
import { cancelTask, getTask, taskOf, updateTask } from 'mcp-resolve/client';
import { connectHttp } from 'mcp-resolve/testing';

import { onCleanup } from '../resolvers/helpers.js';
import { orphanTask, TASK_CLIENT, until } from './helpers.js';
import { useRedisServer } from '../fixtures/redisServer.js';

const redisServer = useRedisServer();

const connection = (): Promise<RedisConnection> => redisServer.connect();

const Approve = z.object({ approve: z.boolean() });
const approval = resolver({ name: 'approval', args: { amount: z.number() } }, ({ amount }) =>
  elicit(`Approve ${amount}?`, Approve),
);

/** The principal is the client's name, as the request's envelope carries it. */
const byClientName: McpResolveServerOptions['principal'] = (ctx) => {
  const envelope: Readonly<Record<string, unknown>> | undefined = ctx.mcpReq.envelope;
  const info = envelope?.['io.modelcontextprotocol/clientInfo'];
  return typeof info === 'object' && info !== null && 'name' in info ? String(info.name) : undefined;
};

/** One instance over the shared Redis task store, on its own HTTP port. */
async function instance(prefix: string, options: { leaseMs?: number; bodyMs?: number; principals?: boolean } = {}) {
  const store = createRedisTaskStore(await connection(), { keyPrefix: prefix });
  const bodies: string[] = [];
  const server = new McpResolveServer(
    { name: 'faulty-tasks', version: '1' },
    {
      tasks: { store, ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }) },
      ...(options.principals === true && { principal: byClientName }),
    },
  )
    .tool(
      'approve',
      { input: { amount: z.number() }, resolve: { decision: approval }, task: 'required' },
      ({ amount }) => {
        bodies.push(`approve ${amount}`);
        return `Done ${amount}.`;
      },
    )
    .tool('slow', { input: {}, task: 'required' }, async () => {
      bodies.push('slow');
      await new Promise((wake) => setTimeout(wake, options.bodyMs ?? 0));
      return 'Slow done.';
    });
  const handle = await serveHttp(server, { port: 0 });
  onCleanup(() => handle.close());
  const connect = async (name = 'client') => {
    const client = await connectHttp(handle.url, {
      era: 'modern',
      capabilities: TASK_CLIENT,
      clientInfo: { name, version: '1' },
    });
    onCleanup(() => client.close());
    return client.client;
  };
  return { connect, bodies, store };
}

const codeOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;

describe('tasks on a Redis store across instances', () => {
  it("tells another principal on another instance that the task does not exist, and the owner's task completes", async () => {
    const prefix = `p:${crypto.randomUUID()}:`;
    const a = await instance(prefix, { principals: true });
    const b = await instance(prefix, { principals: true });
    const alice = await a.connect('alice');
    const mallory = await b.connect('mallory');
    const taskId = taskOf(await alice.callTool({ name: 'approve', arguments: { amount: 5 } }))?.taskId ?? '';
    const [key] = Object.keys((await until(alice, taskId, 'input_required')).inputRequests ?? {});
    const answer = { [key ?? '']: { action: 'accept', content: { approve: true } } };
    for (const call of [
      () => getTask(mallory, taskId),
      () => updateTask(mallory, taskId, answer),
      () => cancelTask(mallory, taskId),
    ]) {
      expect(
        codeOf(
          await call().then(
            () => undefined,
            (error: unknown) => error,
          ),
        ),
      ).toBe(-32602);
    }
    const aliceOnB = await b.connect('alice');
    await updateTask(aliceOnB, taskId, answer);
    expect((await until(alice, taskId, 'completed')).status).toBe('completed');
    expect([...a.bodies, ...b.bodies]).toEqual(['approve 5']);
  });

  it('runs the body at most once when a cancel races the last answer on two instances', async () => {
    const prefix = `race:${crypto.randomUUID()}:`;
    const a = await instance(prefix);
    const b = await instance(prefix);
    const [onA, onB] = [await a.connect(), await b.connect()];
    const outcomes: string[] = [];
    for (let round = 0; round < 10; round++) {
      const taskId = taskOf(await onA.callTool({ name: 'approve', arguments: { amount: round } }))?.taskId ?? '';
      const [key] = Object.keys((await until(onA, taskId, 'input_required')).inputRequests ?? {});
      await Promise.all([
        updateTask(onA, taskId, { [key ?? '']: { action: 'accept', content: { approve: true } } }),
        cancelTask(onB, taskId),
      ]);
      const final = await until(onB, taskId, 'completed', 'cancelled');
      await new Promise((wake) => setTimeout(wake, 20));
      const ran = [...a.bodies, ...b.bodies].filter((body) => body === `approve ${round}`).length;
      expect(ran).toBeLessThanOrEqual(1);
      if (final.status === 'completed') expect(ran).toBe(1);
      outcomes.push(final.status);
    }
    expect(outcomes.every((status) => status === 'completed' || status === 'cancelled')).toBe(true);
  });

  it('resumes a task whose process died mid-body once its lease ran out', async () => {
    const prefix = `dead:${crypto.randomUUID()}:`;
    const b = await instance(prefix, { leaseMs: 500 });
    const client = await b.connect();
    const orphan = orphanTask('slow', {}, Date.now() - 2_000);
    await b.store.create(orphan);
    expect((await getTask(client, orphan.taskId)).status).toBe('working');
    expect((await until(client, orphan.taskId, 'completed')).result).toMatchObject({
      content: [{ type: 'text', text: 'Slow done.' }],
    });
    expect(b.bodies).toEqual(['slow']);
  });

  it('keeps a live body running past its lease: the heartbeat renews it', async () => {
    const prefix = `alive:${crypto.randomUUID()}:`;
    // The body runs for two leases while the client polls B, which would resume it once A showed no
    // sign of life for a lease. A renews every second (a third of the lease): only a process stalled
    // for over 2 s would look dead, where 300 ms leases took a 200 ms stall for a death.
    const a = await instance(prefix, { leaseMs: 3_000, bodyMs: 6_000 });
    const b = await instance(prefix, { leaseMs: 3_000 });
    const onB = await b.connect();
    const taskId = taskOf(await (await a.connect()).callTool({ name: 'slow', arguments: {} }))?.taskId ?? '';
    // Polled on B all along: each poll is B's chance to find the task stalled and resume it.
    await expect.poll(async () => (await getTask(onB, taskId)).status, { interval: 100 }).toBe('completed');
    // A ran the body, and B never did: without the heartbeat B resumes it, and the task completes all the same.
    expect(a.bodies).toEqual(['slow']);
    expect(b.bodies).toEqual([]);
  });
});

describe('10,000 abandoned tasks', () => {
  const record = (taskId: string, expiresAt: number): TaskRecord => ({
    taskId,
    revision: 0,
    status: 'input_required',
    createdAt: new Date().toISOString(),
    lastUpdatedAt: new Date().toISOString(),
    ttlMs: 1,
    expiresAt,
    pollIntervalMs: 100,
    call: { tool: 'approve', arguments: { amount: 1 } },
    pending: {},
    answers: {},
    bodyStarted: false,
  });

  it('in memory: swept on the timer with no further traffic', async () => {
    let clock = Date.now();
    const store = createMemoryTaskStore({ sweepIntervalMs: 50, now: () => clock });
    const expiresAt = clock + 60_000;
    for (let i = 0; i < 10_000; i++) await store.create(record(`m-${i}`, expiresAt));
    await new Promise((wake) => setTimeout(wake, 120));
    expect(store.size).toBe(10_000);
    clock = expiresAt;
    await expect.poll(() => store.size, { timeout: 60_000, interval: 50 }).toBe(0);
  });

  it('in Redis: every key expires and used_memory returns to where it was', async () => {
    const client = await connection();
    const prefix = `abandoned:${crypto.randomUUID()}:`;
    // Every write here is expected to succeed: the store's deadline is far past a starved machine's answer.
    const store = createRedisTaskStore(client, { keyPrefix: prefix, storeTimeoutMs: 30_000 });
    const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1]);
    const before = await usedMemory();
    const inBatches = async (write: (index: number) => Promise<unknown>) => {
      for (let i = 0; i < 10_000; i += 500) await Promise.all(Array.from({ length: 500 }, (_, j) => write(i + j)));
    };
    // Created to live an hour, so none expires while a slow machine is still writing them …
    const created = Array.from({ length: 10_000 }, (_, i) => record(`r-${i}`, Date.now() + 3_600_000));
    await inBatches((i) => store.create(created[i]!));
    const peak = await usedMemory();
    expect(peak - before).toBeGreaterThan(1_000_000);
    // … then each one's last write leaves it a second from the time they were all written: after
    // that, nothing touches them.
    const expiresAt = Date.now() + 1_000;
    const replaced: boolean[] = [];
    await inBatches(async (i) => replaced.push(await store.replace({ ...created[i]!, revision: 1, expiresAt }, 0)));
    expect(replaced.filter(Boolean)).toHaveLength(10_000);
    const count = async () => (await client.keys(`${prefix}*`)).length;
    await expect.poll(count, { timeout: 30_000, interval: 250 }).toBe(0);
    // What stays is allocator and hash-table slack, not the tasks: under a tenth of what they took.
    // Redis shrinks its tables and frees lazily in its cron, so the figure is polled, not read once.
    const retained = async () => (await usedMemory()) - before;
    await expect.poll(retained, { timeout: 30_000, interval: 250 }).toBeLessThan((peak - before) / 10);
  }, 120_000);
});
