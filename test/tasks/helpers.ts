/** Shared helpers for the Tasks extension tests: a task-declaring client, and polling a task to a status. */
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { McpResolveServer } from 'mcp-resolve';
import { TASKS_EXTENSION } from 'mcp-resolve/contracts';
import type { DetailedTask } from 'mcp-resolve/client';
import type { Era } from 'mcp-resolve';
import type { TestConnection } from 'mcp-resolve/testing';
import { connectInProcess } from 'mcp-resolve/testing';
import { getTask } from 'mcp-resolve/client';
import type { Client } from '@modelcontextprotocol/client';

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
