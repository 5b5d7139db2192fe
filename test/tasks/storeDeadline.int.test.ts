/**
 * The Redis task store's deadline, against a real redis-server that stops answering (SIGSTOP, or
 * `CLIENT PAUSE WRITE`) and a real client over HTTP: `tasks/get`, `tasks/cancel` and a task
 * `tools/call` fail instead of hanging, reach the client masked with a ref (the cause goes to the
 * server's error hook under it), and a write whose caller gave up is not applied once Redis
 * answers again.
 */
import { createClient } from 'redis';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FailureInfo } from 'mcp-resolve';
import { elicit, McpResolveError, McpResolveServer, resolver } from 'mcp-resolve';
import { serveHttp } from 'mcp-resolve/node';
import type { RedisConnection } from 'mcp-resolve/redis';
import { connectRedis, createRedisTaskStore } from 'mcp-resolve/redis';
import type { TaskRecord, TaskStore } from 'mcp-resolve/contracts';
import { cancelTask, getTask, taskOf } from 'mcp-resolve/client';
import { connectHttp } from 'mcp-resolve/testing';

import type { RedisServer } from '../../scripts/lib/processes.js';
import { startRedisServer } from '../../scripts/lib/processes.js';
import { onCleanup, textOf } from '../resolvers/helpers.js';
import { TASK_CLIENT, until } from './helpers.js';

/**
 * The deadline of the store calls that meet a Redis that does not answer: shorter than any test's
 * own timeout, so a hang fails the test rather than passing it.
 */
const STORE_TIMEOUT_MS = 1_000;

/**
 * The deadline of every other store call (parking a task, the checks once Redis answers again): far
 * past any answer of a starved machine, so only a Redis that does not answer reaches it.
 */
const PATIENT_MS = 30_000;

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.dispose();
});

/** A connection closed after the test. */
async function connect(): Promise<RedisConnection> {
  const connection = await connectRedis(redis.url);
  onCleanup(async () => {
    await connection.destroy();
  });
  return connection;
}

/** Which calls of an instance's store get the short deadline: none, writes only, or all. */
type Stalled = 'none' | 'writes' | 'all';

/**
 * The server's task store: `patient` (the long deadline), except for the calls that `stalled()`
 * names, which go to `hasty` (the short one). Both are on one connection, under one prefix.
 */
function switchingStore(patient: TaskStore, hasty: TaskStore, stalled: () => Stalled): TaskStore {
  const write = () => (stalled() === 'none' ? patient : hasty);
  return {
    create: (record) => write().create(record),
    get: (taskId) => (stalled() === 'all' ? hasty : patient).get(taskId),
    replace: (record, expectedRevision) => write().replace(record, expectedRevision),
  };
}

/** Stops Redis (SIGSTOP) for the duration of `during`, while `desk`'s store calls have the short deadline. */
async function paused<T>(desk: { stall(calls: Stalled): void }, during: () => Promise<T>): Promise<T> {
  desk.stall('all');
  redis.pause();
  try {
    return await during();
  } finally {
    redis.resume();
    desk.stall('none');
  }
}

const Approve = z.object({ approve: z.boolean() });
const approval = resolver({ name: 'approval', args: { amount: z.number() } }, ({ amount }) =>
  elicit(`Approve ${amount}?`, Approve),
);

/**
 * One server over the Redis task store, served on HTTP, with its error hook recorded, and a task
 * client. Its store calls have the long deadline until `stall` gives the calls that meet a Redis
 * that does not answer the short one; `store` and `hasty` are the two, for the test's own calls.
 */
async function instance() {
  const connection = await connect();
  const keyPrefix = `deadline:${crypto.randomUUID()}:`;
  const store = createRedisTaskStore(connection, { keyPrefix, storeTimeoutMs: PATIENT_MS });
  const hasty = createRedisTaskStore(connection, { keyPrefix, storeTimeoutMs: STORE_TIMEOUT_MS });
  let stalled: Stalled = 'none';
  const failures: { error: unknown; info: FailureInfo }[] = [];
  const bodies: number[] = [];
  const server = new McpResolveServer(
    { name: 'deadline-tasks', version: '1' },
    {
      tasks: { store: switchingStore(store, hasty, () => stalled), onerror: () => undefined },
      onerror: (error, info) => failures.push({ error, info }),
    },
  ).tool(
    'approve',
    { input: { amount: z.number() }, resolve: { decision: approval }, task: 'required' },
    ({ amount }) => {
      bodies.push(amount);
      return `Done ${amount}.`;
    },
  );
  const handle = await serveHttp(server, { port: 0 });
  onCleanup(() => handle.close());
  const client = await connectHttp(handle.url, { era: 'modern', capabilities: TASK_CLIENT });
  onCleanup(() => client.close());
  /** A task parked on its question. */
  const parked = async (amount: number): Promise<string> => {
    const taskId = taskOf(await client.client.callTool({ name: 'approve', arguments: { amount } }))?.taskId ?? '';
    expect((await until(client.client, taskId, 'input_required')).status).toBe('input_required');
    return taskId;
  };
  const stall = (calls: Stalled): void => {
    stalled = calls;
  };
  return { client: client.client, connection, keyPrefix, store, hasty, stall, failures, bodies, parked };
}

/** The error a request rejected with. */
async function rejection(promise: Promise<unknown>): Promise<{ code?: unknown; message?: unknown }> {
  return promise.then(
    () => ({ message: 'resolved' }),
    (error: unknown) => error as { code?: unknown; message?: unknown },
  );
}

const MASKED =
  /^Internal error \(ref ([0-9a-f]{12})\): the server could not complete this request\. Its operator can find the cause in the server log under this reference\.$/;

/** The ref of a masked message; fails the test when the message is not the masked one. */
function refOf(message: unknown): string {
  const match = MASKED.exec(String(message).replace(/^MCP error -32603: /, ''));
  expect(match, String(message)).not.toBeNull();
  return match?.[1] ?? '';
}

/** Checks that the error hook got a task-store failure under `ref`, for `method` on `taskId`. */
function expectReported(failures: { error: unknown; info: FailureInfo }[], ref: string, method: string, name: string) {
  const failure = failures.find((entry) => entry.info.ref === ref);
  expect(failure?.info).toEqual({ ref, method, name });
  expect(failure?.error).toBeInstanceOf(McpResolveError);
  expect(failure?.error).toMatchObject({ code: 'redis_unavailable', data: { operation: 'task_store' } });
}

describe('a task store whose Redis stopped answering (SIGSTOP)', () => {
  it('tasks/get fails masked with a ref; the hook has the cause; the task is served again once Redis is back', async () => {
    const desk = await instance();
    const taskId = await desk.parked(1);
    const error = await paused(desk, () => rejection(getTask(desk.client, taskId)));
    expect(error.code).toBe(-32603);
    const ref = refOf(error.message);
    expectReported(desk.failures, ref, 'tasks/get', taskId);
    expect(String((desk.failures.find((entry) => entry.info.ref === ref)?.error as Error).message)).toMatch(
      new RegExp(
        `^Task store: the read of task ${taskId} failed: Redis did not answer \\(no answer within 1000 ms\\)\\.$`,
      ),
    );
    expect((await getTask(desk.client, taskId)).status).toBe('input_required');
  });

  it('tasks/cancel fails masked, and is not applied once Redis answers again', async () => {
    const desk = await instance();
    const taskId = await desk.parked(2);
    const error = await paused(desk, () => rejection(cancelTask(desk.client, taskId)));
    expect(error.code).toBe(-32603);
    expectReported(desk.failures, refOf(error.message), 'tasks/cancel', taskId);
    // Redis answers in order: this read comes after whatever the cancel left queued.
    expect((await getTask(desk.client, taskId)).status).toBe('input_required');
  });

  it('a task tools/call answers a masked error result, and no task appears once Redis is back', async () => {
    const desk = await instance();
    const result = await paused(desk, () => desk.client.callTool({ name: 'approve', arguments: { amount: 3 } }));
    expect(result.isError).toBe(true);
    expectReported(desk.failures, refOf(textOf(result)), 'tools/call', 'approve');
    expect(await desk.connection.keys(`${desk.keyPrefix}*`)).toEqual([]);
  });

  it('a write the store gave up on is refused by Redis once it runs, never applied', async () => {
    const desk = await instance();
    const taskId = await desk.parked(4);
    const current = (await desk.store.get(taskId)) as TaskRecord;
    const cancelled: TaskRecord = { ...current, status: 'cancelled', revision: current.revision + 1, pending: {} };
    const created: TaskRecord = { ...current, taskId: crypto.randomUUID(), revision: 0 };
    const [replaced, create] = await paused(desk, () =>
      Promise.all([rejection(desk.hasty.replace(cancelled, current.revision)), rejection(desk.hasty.create(created))]),
    );
    expect(replaced.message).toMatch(
      /^Task store: the replace of task .* failed: Redis did not answer .*past its deadline\.$/,
    );
    expect(create.message).toMatch(
      /^Task store: the create of task .* failed: Redis did not answer .*past its deadline\.$/,
    );
    expect((await desk.store.get(taskId))?.status).toBe('input_required');
    expect(await desk.store.get(created.taskId)).toBeUndefined();
    // The store still writes: the same cancel, sent now, is applied.
    expect(await desk.store.replace(cancelled, current.revision)).toBe(true);
    expect((await getTask(desk.client, taskId)).status).toBe('cancelled');
  });
});

describe("a write that reaches Redis after its deadline by Redis's clock", () => {
  it('is refused at once, and the error says this instance may be behind Redis', async () => {
    const desk = await instance();
    const taskId = await desk.parked(7);
    const current = (await desk.store.get(taskId)) as TaskRecord;
    const cancelled: TaskRecord = { ...current, status: 'cancelled', revision: current.revision + 1, pending: {} };
    // This instance's clock behind Redis's by more than the store's deadline: every deadline it
    // writes has passed by Redis's clock.
    const now = Date.now;
    Date.now = () => now() - 2 * PATIENT_MS;
    let error;
    try {
      error = await rejection(desk.store.replace(cancelled, current.revision));
    } finally {
      Date.now = now;
    }
    expect(error.message).toMatch(
      /^Task store: the replace of task .* failed: Redis ran the write \d+ ms past its deadline \(storeTimeoutMs 30000\) and did not apply it; if this repeats while Redis answers quickly, this instance's clock is behind Redis's \(keep clocks in sync\)\.$/,
    );
    expect((await desk.store.get(taskId))?.status).toBe('input_required');
  });
});

describe('a task store whose Redis holds writes (CLIENT PAUSE WRITE)', () => {
  it('tasks/cancel whose write is held past its deadline fails masked and is refused when Redis runs it', async () => {
    const desk = await instance();
    const taskId = await desk.parked(5);
    const admin = createClient({ url: redis.url });
    await admin.connect();
    onCleanup(async () => {
      admin.destroy();
    });
    // Reads pass and scripts wait: the cancel reads the task, then its compare-and-set is held (only
    // the writes have the short deadline).
    desk.stall('writes');
    await admin.sendCommand(['CLIENT', 'PAUSE', '60000', 'WRITE']);
    let error;
    try {
      error = await rejection(cancelTask(desk.client, taskId));
    } finally {
      await admin.sendCommand(['CLIENT', 'UNPAUSE']);
      desk.stall('none');
    }
    expect(error.code).toBe(-32603);
    expectReported(desk.failures, refOf(error.message), 'tasks/cancel', taskId);
    const cause = desk.failures.at(-1)?.error as Error;
    expect(cause.message).toMatch(/^Task store: the replace of task .* failed: Redis did not answer/);
    expect((await getTask(desk.client, taskId)).status).toBe('input_required');
    expect(desk.bodies).toEqual([]);
  });
});

describe('a task store whose Redis is gone', () => {
  it('answers tasks/get masked with a ref, not "The client is offline"', async () => {
    const desk = await instance();
    const taskId = await desk.parked(6);
    await redis.stop();
    try {
      const error = await rejection(getTask(desk.client, taskId));
      expect(error.code).toBe(-32603);
      expectReported(desk.failures, refOf(error.message), 'tasks/get', taskId);
    } finally {
      await redis.restart();
    }
  });
});

describe('storeTimeoutMs', () => {
  it('refuses a value that is not a positive integer, naming the option', async () => {
    const connection = await connect();
    for (const storeTimeoutMs of [0, -5, 1.5, Number.NaN]) {
      expect(() => createRedisTaskStore(connection, { storeTimeoutMs })).toThrow(
        expect.objectContaining({
          code: 'invalid_options',
          data: { api: 'createRedisTaskStore()', option: 'storeTimeoutMs' },
          message: `createRedisTaskStore(): storeTimeoutMs must be a positive integer number of milliseconds (got ${String(storeTimeoutMs)}).`,
        }),
      );
    }
  });
});
