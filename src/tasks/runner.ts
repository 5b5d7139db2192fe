/**
 * Running library tools as tasks. A task is a third way for a tool's questions to reach the
 * client, beside multi-round requests and pushed requests: the task parks in `input_required`
 * with the resolvers' questions, `tasks/update` records the answers, and the task resumes. Every
 * step re-reads the task from the store and writes it back with a compare-and-set, so any
 * instance sharing the store can answer or resume a task, and the body is entered exactly once.
 */
import type {
  CallToolRequest,
  CallToolResult,
  InputRequiredResult,
  McpServer,
  ServerContext,
} from '@modelcontextprotocol/server';

import { requestTrace } from '../context.js';
import { callTool, roundRequestOf, toolFailure, validateInput } from '../round/call.js';
import type { MaybePromise, RoundMethod } from '../round/pipeline.js';
import { serveRound } from '../round/pipeline.js';
import { clientCapabilitiesOf, eraOf } from '../round/requestEra.js';
import type { RoundScope, RoundServices } from '../round/roundScope.js';
import { contextOf } from '../round/roundScope.js';
import type { CompiledTool } from '../round/tool.js';
import { recordAnswers } from './answers.js';
import type { TaskSupport } from '../round/taskDeclaration.js';
import type { TaskHost } from '../round/taskHost.js';
import { TaskExecution } from './execution.js';
import type { TaskOptions } from './records.js';
import { isTerminal, TaskRecords } from './records.js';
import type { TaskRecord } from './store.js';
import { registerTaskMethods } from './handlers.js';
import {
  createTaskResult,
  declaresTasks,
  TASKS_EXTENSION,
  detailedTask,
  taskNotFound,
  tasksNotDeclared,
} from './wire.js';

/** Runs one server's task-capable tools and serves `tasks/get`, `tasks/update` and `tasks/cancel`. */
export class TaskRunner implements TaskHost {
  readonly extension = TASKS_EXTENSION;

  private readonly records: TaskRecords;
  private readonly execution: TaskExecution;

  constructor(tools: ReadonlyMap<string, CompiledTool>, options: TaskOptions = {}) {
    this.records = new TaskRecords(options);
    this.execution = new TaskExecution(tools, this.records);
  }

  /** Serves a `tools/call` of a task-capable tool: a task when the request allows one, an ordinary call otherwise. */
  call(
    tool: CompiledTool,
    support: TaskSupport,
    request: CallToolRequest,
    sdkCtx: ServerContext,
    services: RoundServices,
  ): MaybePromise<CallToolResult | InputRequiredResult> {
    const era = eraOf(sdkCtx);
    const capabilities = clientCapabilitiesOf(sdkCtx, services.server, era);
    if (era === 'legacy' || !declaresTasks(capabilities)) {
      if (support.support === 'required') {
        throw tasksNotDeclared(
          era === 'legacy'
            ? `Tool '${tool.name}' runs only as a task, which is served on protocol 2026-07-28; it`
            : `Tool '${tool.name}' runs only as a task; it`,
        );
      }
      return callTool(tool, request, sdkCtx, services);
    }
    const call: TaskCall = { tool, support, capabilities, runner: this };
    return serveRound(TASK_CREATE, call, roundRequestOf(tool, request), sdkCtx, services);
  }

  /**
   * Creates the task of a validated call and sets it going: with every answer already in (`before-task`)
   * the body runs at once; otherwise the task's resolvers run in the background.
   */
  async start(
    call: TaskCall,
    args: Record<string, unknown>,
    resolved: Record<string, unknown>,
    round: RoundScope,
    services: RoundServices,
  ): Promise<CallToolResult> {
    const { tool, capabilities } = call;
    const beforeTask = call.support.questions === 'before-task';
    const record = this.records.newRecord(tool.name, args, capabilities, services.principal(round.ctx), beforeTask);
    await this.records.store.create(record);
    round.ctx[requestTrace]?.task(record.taskId);
    if (beforeTask) void this.execution.execute(record.taskId, tool, { ...args, ...resolved }, round.ctx, services);
    else void this.execution.advance(record.taskId, contextOf(round.ctx, services), services);
    return createTaskResult(record);
  }

  /** Installs the extension's methods on `mcp`, served by this runner. */
  serve(mcp: McpServer, services: RoundServices): void {
    registerTaskMethods(mcp, this, services);
  }

  /** `tasks/get`: the task as the caller may see it. */
  async get(taskId: string, sdkCtx: ServerContext, services: RoundServices): Promise<Record<string, unknown>> {
    return detailedTask(await this.visible(taskId, sdkCtx, services));
  }

  /**
   * `tasks/update`: records the answers to pending questions (see answers.ts); a task with no
   * question left resumes.
   */
  async update(
    taskId: string,
    responses: Readonly<Record<string, unknown>>,
    dropped: readonly string[],
    sdkCtx: ServerContext,
    services: RoundServices,
  ): Promise<void> {
    await this.visible(taskId, sdkCtx, services);
    const next = await this.records.transition(taskId, (current) =>
      recordAnswers(current, responses, dropped, services.maxAnswerBytes),
    );
    if (next?.status === 'working') void this.execution.advance(taskId, contextOf(sdkCtx, services), services);
  }

  /** `tasks/cancel`: a task not yet finished becomes `cancelled`, and a body running here is signalled. */
  async cancel(taskId: string, sdkCtx: ServerContext, services: RoundServices): Promise<void> {
    await this.visible(taskId, sdkCtx, services);
    const next = await this.records.transition(taskId, (current) =>
      isTerminal(current)
        ? undefined
        : { ...current, status: 'cancelled', pending: {}, statusMessage: 'Cancelled by the client.' },
    );
    if (next !== undefined) this.execution.cancel(taskId);
  }

  /**
   * The task, or the not-found error when it does not exist, expired, or belongs to another
   * principal. A `working` task whose lease ran out (its process died) is recorded `failed` first.
   */
  private async visible(taskId: string, sdkCtx: ServerContext, services: RoundServices): Promise<TaskRecord> {
    const record = await this.records.store.get(taskId);
    if (record === undefined || record.principal !== services.principal(sdkCtx)) throw taskNotFound(taskId);
    if (!this.records.stalled(record)) return record;
    return (await this.records.markLost(taskId)) ?? (await this.visible(taskId, sdkCtx, services));
  }
}

/** A `tools/call` that creates a task: the tool, how it takes part, and what the client declared. */
interface TaskCall {
  readonly tool: CompiledTool;
  readonly support: TaskSupport;
  readonly capabilities: TaskRecord['call']['clientCapabilities'];
  readonly runner: TaskRunner;
}

/**
 * How the `tools/call` that creates a task runs through the round pipeline: its questions asked
 * first as rounds of the call itself (`before-task`), or none (`in-task`: they park the task).
 */
const TASK_CREATE: RoundMethod<TaskCall, CallToolResult> = {
  method: 'tools/call',
  validate: (call, raw) => validateInput(call.tool, raw),
  resolvedBy: (call) => (call.support.questions === 'before-task' ? call.tool.resolvedBy : undefined),
  run: (call, args, resolved, round, services) => call.runner.start(call, args, resolved, round, services),
  finish: (_call, value) => value as CallToolResult,
  fail: (call, error, services, trace) => toolFailure(error, call.tool, services, trace),
};
