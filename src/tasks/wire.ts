/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on the wire: its identifier,
 * the params of `tasks/get`, `tasks/update` and `tasks/cancel`, the task shapes results carry,
 * and the errors it answers with. Field names follow the pinned conformance suite
 * (`ttlMs`, `pollIntervalMs`; no `requestState` on tasks).
 */
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/server';
import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { TaskRecord } from './store.js';

/** The extension's identifier, under `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Whether the request's declared capabilities include the Tasks extension. */
export function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  const extensions: unknown = capabilities?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}

/** The `-32021` error for a client that did not declare the extension on this request. */
export function tasksNotDeclared(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `${what} needs the Tasks extension: declare "${TASKS_EXTENSION}" under _meta["io.modelcontextprotocol/clientCapabilities"].extensions on the request.`,
  );
}

/** The `-32602` error for a task id this server does not hold for the caller. */
export function taskNotFound(taskId: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Task not found: '${taskId}' does not exist or has expired (a task is kept for ttlMs after it was created).`,
  );
}

const taskIdParam = z.string().min(1, 'taskId must be a non-empty string');

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` params; unknown fields are allowed. The SDK lifts
 * `tasks/update`'s `inputResponses` off the params before validation, exactly as on a multi-round
 * retry, and hands them over as `ctx.mcpReq.inputResponses`.
 */
export const TaskRefParams = z.looseObject({ taskId: taskIdParam });

/** The fields every task shape carries. */
function taskFields(record: TaskRecord) {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/**
 * The `CreateTaskResult` a `tools/call` answers with: the task handle, flat, nothing inlined. The
 * empty `content` is what the SDK's `tools/call` seam adds to every contentless result anyway;
 * it is written here so the value is a `CallToolResult` for the handler's type.
 */
export function createTaskResult(record: TaskRecord): CallToolResult {
  return { content: [], resultType: 'task', ...taskFields(record) };
}

/** The `tasks/get` result: the task with what its status inlines (questions, result or error). */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const fields = taskFields(record);
  switch (record.status) {
    case 'input_required':
      return {
        ...fields,
        inputRequests: Object.fromEntries(Object.entries(record.pending).map(([key, q]) => [key, q.request])),
      };
    case 'completed':
      return { ...fields, result: record.result ?? {} };
    case 'failed':
      return { ...fields, error: record.error ?? { code: ProtocolErrorCode.InternalError, message: 'Task failed' } };
    case 'working':
    case 'cancelled':
      return fields;
  }
}
