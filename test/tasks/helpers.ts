/** Shared helpers for the Tasks extension tests: a task-declaring client, polling a task to a status, and a store where two writers race. */
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { McpResolveServer } from 'mcp-resolve';
import { TASKS_EXTENSION } from 'mcp-resolve/contracts';
import type { DetailedTask } from 'mcp-resolve/client';
import type { Era } from 'mcp-resolve';
import type { TestConnection } from 'mcp-resolve/testing';
import { connectInProcess } from 'mcp-resolve/testing';
import { getTask } from 'mcp-resolve/client';
import type { Client } from '@modelcontextprotocol/client';
import type { TaskRecord, TaskStore } from 'mcp-resolve/contracts';

import { onCleanup } from '../resolvers/helpers.js';

/** What a client that answers forms and declares the Tasks extension declares. */
export const TASK_CLIENT: ClientCapabilities = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };

/** Connects in process on `era` with `capabilities` (the Tasks extension by default); closed after the test. */
export async function connectTasks(
  server: McpResolveServer,
  era: Era = 'modern',
  capabilities: ClientCapabilities = TASK_CLIENT,
): Promise<TestConnection> {
  const connection = await connectInProcess(server.createServer, { era, capabilities });
  onCleanup(() => connection.close());
  return connection;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** Polls `tasks/get` until the task is in one of `statuses` or terminal (at most 500 polls, 10 ms apart). */
export async function until(
  client: Client,
  taskId: string,
  ...statuses: DetailedTask['status'][]
): Promise<DetailedTask> {
  for (let poll = 0; poll < 500; poll++) {
    const task = await getTask(client, taskId);
    if (statuses.includes(task.status) || TERMINAL.has(task.status)) return task;
    await new Promise((wake) => setTimeout(wake, 10));
  }
  throw new Error(`task ${taskId} never reached ${statuses.join(' or ')}`);
}

/** A store whose first two replaces wait for each other: two instances that read the same revision write at once. */
export function racingStore(inner: TaskStore): TaskStore & { readonly outcomes: boolean[] } {
  const outcomes: boolean[] = [];
  let arrived = 0;
  let release: () => void = () => undefined;
  const bothArrived = new Promise<void>((done) => (release = done));
  return {
    outcomes,
    create: (record) => inner.create(record),
    get: (taskId) => inner.get(taskId),
    async replace(record, expectedRevision) {
      if (arrived < 2) {
        arrived++;
        if (arrived === 2) release();
        await bothArrived;
        const replaced = await inner.replace(record, expectedRevision);
        outcomes.push(replaced);
        return replaced;
      }
      return inner.replace(record, expectedRevision);
    },
  };
}

/**
 * What a process leaves behind when it dies after claiming a task's body: `working`, claimed, no
 * heartbeat since `past` (epoch ms), with the call of `tool` with `args`.
 */
export function orphanTask(tool: string, args: Record<string, unknown>, past: number): TaskRecord {
  return {
    taskId: crypto.randomUUID(),
    revision: 3,
    status: 'working',
    createdAt: new Date(past).toISOString(),
    lastUpdatedAt: new Date(past).toISOString(),
    heartbeatAt: past,
    ttlMs: 60_000,
    expiresAt: past + 60_000,
    pollIntervalMs: 100,
    call: { tool, arguments: args },
    pending: {},
    answers: {},
    bodyStarted: true,
    owner: 'a-run-that-died',
  };
}
