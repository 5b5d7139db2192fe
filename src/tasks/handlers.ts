/**
 * The Tasks extension's methods on an SDK server instance: `tasks/get`, `tasks/update` and
 * `tasks/cancel`, registered with explicit schemas (the SDK serves these names on 2026-07-28 only
 * when so registered), gated on the request declaring the extension, and refused on 2025-11-25.
 */
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import { throwMasked } from '../round/masking.js';
import { clientCapabilitiesOf, eraOf } from '../round/requestEra.js';
import type { InstanceServices } from '../round/services.js';
import { declaresTasks, TaskRefParams, tasksNotDeclared } from './wire.js';

/** Refuses a tasks method on a request that cannot use it. */
function assertTaskRequest(method: string, ctx: ServerContext, services: InstanceServices): void {
  const era = eraOf(ctx);
  if (era === 'legacy') {
    throw new ProtocolError(
      ProtocolErrorCode.MethodNotFound,
      `${method}: the Tasks extension is served on protocol 2026-07-28; this 2025-11-25 connection runs tools without tasks.`,
    );
  }
  if (!declaresTasks(clientCapabilitiesOf(ctx, services.server, era))) throw tasksNotDeclared(method);
}

/** What serves the extension's methods once a request passed the gate (the task runner). */
export interface TaskMethods {
  get(taskId: string, ctx: ServerContext, services: InstanceServices): Promise<Record<string, unknown>>;
  update(
    taskId: string,
    responses: Readonly<Record<string, unknown>>,
    dropped: readonly string[],
    ctx: ServerContext,
    services: InstanceServices,
  ): Promise<void>;
  cancel(taskId: string, ctx: ServerContext, services: InstanceServices): Promise<void>;
}

/** One of the extension's methods. */
type TaskMethod = 'tasks/get' | 'tasks/update' | 'tasks/cancel';

/**
 * Serves `method` for `taskId` with `work`: protocol errors (the task does not exist, the gate)
 * reach the client as they are; any other failure (a task store that did not answer) reaches it
 * masked, with the ref under which the server's error hook received the cause.
 */
async function serveTaskMethod<T>(
  method: TaskMethod,
  taskId: string,
  services: InstanceServices,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throwMasked(error, services.maskError, { method, name: taskId });
  }
}

/** Registers the extension's methods on `mcp`, served by `runner`. */
export function registerTaskMethods(mcp: McpServer, runner: TaskMethods, services: InstanceServices): void {
  mcp.server.setRequestHandler('tasks/get', { params: TaskRefParams }, async (params, ctx) => {
    assertTaskRequest('tasks/get', ctx, services);
    return serveTaskMethod('tasks/get', params.taskId, services, () => runner.get(params.taskId, ctx, services));
  });
  mcp.server.setRequestHandler('tasks/update', { params: TaskRefParams }, async (params, ctx) => {
    assertTaskRequest('tasks/update', ctx, services);
    const { inputResponses = {}, droppedInputResponseKeys = [] } = ctx.mcpReq;
    await serveTaskMethod('tasks/update', params.taskId, services, () =>
      runner.update(params.taskId, inputResponses, droppedInputResponseKeys, ctx, services),
    );
    return {};
  });
  mcp.server.setRequestHandler('tasks/cancel', { params: TaskRefParams }, async (params, ctx) => {
    assertTaskRequest('tasks/cancel', ctx, services);
    await serveTaskMethod('tasks/cancel', params.taskId, services, () => runner.cancel(params.taskId, ctx, services));
    return {};
  });
}
