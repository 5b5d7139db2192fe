/**
 * Tasks shared through a real redis-server: a task parked on a question on one instance is seen,
 * answered and completed through another; concurrent answers on two instances enter the body once.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { elicit, McpResolveServer, resolver } from 'mcp-resolve';
import type { HttpServerHandle } from 'mcp-resolve/node';
import { serveHttp } from 'mcp-resolve/node';
import { connectHttp } from 'mcp-resolve/testing';
import { getTask, taskOf, updateTask } from 'mcp-resolve/client';

import { createRedisTaskStore } from 'mcp-resolve/redis';

import { onCleanup, textOf } from '../resolvers/helpers.js';
import { TASK_CLIENT, until } from './helpers.js';
import { useRedisServer } from '../fixtures/redisServer.js';

const redisServer = useRedisServer();

const Approve = z.object({ approve: z.boolean() });
const approval = resolver({ name: 'approval', args: { amount: z.number() } }, ({ amount }) =>
  elicit(`Approve ${amount}?`, Approve),
);

/** One server instance (its own process state) over a shared Redis, served on its own HTTP port. */
async function instance(name: string, prefix: string) {
  const connection = await redisServer.connect();
  const bodies: string[] = [];
  const server = new McpResolveServer(
    { name: 'fleet-tasks', version: '1' },
    { tasks: { store: createRedisTaskStore(connection, { keyPrefix: prefix }) } },
  ).tool(
    'approve',
    { input: { amount: z.number() }, resolve: { decision: approval }, task: 'required' },
    ({ amount, decision }) => {
      bodies.push(name);
      return `${decision.approve ? 'Approved' : 'Rejected'} ${amount} on ${name}.`;
    },
  );
  const handle: HttpServerHandle = await serveHttp(server, { port: 0 });
  onCleanup(() => handle.close());
  const client = await connectHttp(handle.url, { era: 'modern', capabilities: TASK_CLIENT });
  onCleanup(() => client.close());
  return { client: client.client, bodies };
}

describe('a Redis task store shared by two instances', () => {
  it('answers and completes on instance B a task parked on a question on instance A', async () => {
    const prefix = `t1:${crypto.randomUUID()}:`;
    const a = await instance('A', prefix);
    const b = await instance('B', prefix);
    const created = await a.client.callTool({ name: 'approve', arguments: { amount: 120 } });
    const taskId = taskOf(created)?.taskId ?? '';
    const parked = await until(a.client, taskId, 'input_required');
    const keys = Object.keys(parked.inputRequests ?? {});
    expect(keys).toHaveLength(1);

    const seenOnB = await getTask(b.client, taskId);
    expect(seenOnB.status).toBe('input_required');
    expect(Object.keys(seenOnB.inputRequests ?? {})).toEqual(keys);
    await updateTask(b.client, taskId, { [keys[0] ?? '']: { action: 'accept', content: { approve: true } } });

    const done = await until(a.client, taskId, 'completed');
    expect(textOf(done.result ?? { content: [] })).toBe('Approved 120 on B.');
    expect([...a.bodies, ...b.bodies]).toEqual(['B']);
  });

  it('enters the body once when both instances receive the last answer at the same time', async () => {
    const prefix = `t2:${crypto.randomUUID()}:`;
    const a = await instance('A', prefix);
    const b = await instance('B', prefix);
    const taskId = taskOf(await a.client.callTool({ name: 'approve', arguments: { amount: 7 } }))?.taskId ?? '';
    const [key] = Object.keys((await until(a.client, taskId, 'input_required')).inputRequests ?? {});
    const answer = { [key ?? '']: { action: 'accept', content: { approve: false } } };
    await Promise.all([updateTask(a.client, taskId, answer), updateTask(b.client, taskId, answer)]);
    const done = await until(b.client, taskId, 'completed');
    expect(textOf(done.result ?? { content: [] })).toMatch(/^Rejected 7 on [AB]\.$/);
    expect([...a.bodies, ...b.bodies]).toHaveLength(1);
  });

  it('forgets a task when Redis expires its key', async () => {
    const prefix = `t3:${crypto.randomUUID()}:`;
    const connection = await redisServer.connect();
    const store = createRedisTaskStore(connection, { keyPrefix: prefix });
    const now = Date.now();
    const record = {
      taskId: 'gone-soon',
      revision: 0,
      status: 'working',
      createdAt: new Date(now).toISOString(),
      lastUpdatedAt: new Date(now).toISOString(),
      ttlMs: 1,
      expiresAt: now - 1_000,
      pollIntervalMs: 100,
      call: { tool: 'approve', arguments: {} },
      pending: {},
      answers: {},
      bodyStarted: false,
    } as const;
    await store.create(record);
    expect(await store.get('gone-soon')).toBeUndefined();
    expect(await store.replace({ ...record, revision: 1 }, 0)).toBe(false);
  });
});
