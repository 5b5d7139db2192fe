/**
 * The client half of the Tasks extension, for the SDK's `Client`: read the task a `tools/call`
 * created, poll it with `tasks/get`, answer its questions with `tasks/update`, cancel it.
 *
 * The SDK 2.4 client rejects a `tools/call` result whose `resultType` is `"task"`
 * (`UnsupportedResultType`) before any hook runs, so the testing connections pass every received
 * message through {@link adaptTaskResult}: a `CreateTaskResult` reaches the client as a complete
 * result with no content whose `_meta` carries the task handle under the extension's id, which
 * {@link taskOf} reads. Nothing else about the message changes.
 */
import type { CallToolResult, Client, InputRequest, JSONRPCMessage } from '@modelcontextprotocol/client';
import { isJSONRPCResultResponse } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { TASKS_EXTENSION } from '../tasks/wire.js';

/** The task handle a `tools/call` answered with. */
export interface TaskHandle {
  readonly taskId: string;
  readonly status: string;
  readonly ttlMs?: number | null;
  readonly pollIntervalMs?: number;
}

const Handle = z.looseObject({
  taskId: z.string(),
  status: z.string(),
  ttlMs: z.number().nullable().optional(),
  pollIntervalMs: z.number().optional(),
});

/** What `tasks/get` answers: the task, with its questions, result or error inlined by status. */
const DetailedTaskSchema = z.looseObject({
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttlMs: z.number().nullable().optional(),
  pollIntervalMs: z.number().optional(),
  inputRequests: z
    .record(
      z.string(),
      z.custom<InputRequest>((value) => typeof value === 'object' && value !== null),
    )
    .optional(),
  result: z.custom<CallToolResult>((value) => typeof value === 'object' && value !== null).optional(),
  error: z.looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
});

/** A task as `tasks/get` reports it. */
export type DetailedTask = z.infer<typeof DetailedTaskSchema>;

const Ack = z.looseObject({});

/** Rewrites a received `CreateTaskResult` into a complete result carrying the handle in `_meta`; other messages pass unchanged. */
export function adaptTaskResult(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCResultResponse(message) || message.result.resultType !== 'task') return message;
  const { resultType: _task, content: _content, _meta, ...handle } = message.result;
  return {
    ...message,
    result: { resultType: 'complete', content: [], _meta: { ...(_meta ?? {}), [TASKS_EXTENSION]: handle } },
  };
}

/** The task a `tools/call` result stands for, or `undefined` when the tool answered directly. */
export function taskOf(result: { readonly _meta?: Record<string, unknown> | undefined }): TaskHandle | undefined {
  const parsed = Handle.safeParse(result._meta?.[TASKS_EXTENSION]);
  return parsed.success ? parsed.data : undefined;
}

/** `tasks/get`. */
export function getTask(client: Client, taskId: string): Promise<DetailedTask> {
  return client.request({ method: 'tasks/get', params: { taskId } }, DetailedTaskSchema);
}

/** `tasks/update`: answers some or all of the task's `inputRequests`, by key. */
export async function updateTask(
  client: Client,
  taskId: string,
  inputResponses: Readonly<Record<string, unknown>>,
): Promise<void> {
  await client.request({ method: 'tasks/update', params: { taskId, inputResponses } }, Ack);
}

/** `tasks/cancel`. */
export async function cancelTask(client: Client, taskId: string): Promise<void> {
  await client.request({ method: 'tasks/cancel', params: { taskId } }, Ack);
}
