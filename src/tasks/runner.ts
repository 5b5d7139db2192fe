/**
 * Running library tools as tasks. A task is a third way for a tool's questions to reach the
 * client, beside multi-round requests and pushed requests: the task parks in `input_required`
 * with the resolvers' questions, `tasks/update` records the answers, and the task resumes. Every
 * step re-reads the task from the store and writes it back with a compare-and-set, so any
 * instance sharing the store can answer or resume a task, and the body is entered exactly once.
 */
import type { CallToolRequest, McpServer, ServerContext } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';

import { clientCapabilitiesOf, contextOf, eraOf } from '../round/requestEra.js';
import type { RoundState } from '../round/roundState.js';
import { endTrace, failTrace, openRoundState, startTrace } from '../round/roundState.js';
import type { InstanceServices } from '../round/services.js';
import type { ToolCallResult } from '../round/toolCall.js';
import { inputElementsError, serveToolCall, toolFailure, validateInput } from '../round/toolCall.js';
import { isHandOff } from '../questions/strategy.js';
import type { CompiledTool } from '../round/tool.js';
import { recordAnswers } from './answers.js';
import type { TaskSupport } from '../round/taskDeclaration.js';
import type { TaskHost } from '../round/taskHost.js';
import { TaskExecution } from './execution.js';
import { TaskLease } from './lease.js';
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
  private readonly lease: TaskLease;
  private readonly execution: TaskExecution;

  constructor(tools: ReadonlyMap<string, CompiledTool>, options: TaskOptions = {}) {
    this.records = new TaskRecords(options);
    this.lease = new TaskLease(this.records, options);
    this.execution = new TaskExecution(tools, this.records, this.lease);
  }

  /** Serves a `tools/call` of a task-capable tool: a task when the request allows one, an ordinary call otherwise. */
  async call(
    tool: CompiledTool,
    support: TaskSupport,
    request: CallToolRequest,
    sdkCtx: ServerContext,
    services: InstanceServices,
  ): Promise<ToolCallResult> {
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
      return serveToolCall(tool, request, sdkCtx, services);
    }
    const args = request.params.arguments ?? {};
    const trace = startTrace(services, sdkCtx, 'tools/call', tool.name, request.params);
    try {
      const tooLarge = inputElementsError(tool, args, services.maxToolInputElements);
      if (tooLarge !== undefined) return endTrace(trace, tooLarge);
      const target = { method: 'tools/call', target: tool.name, arguments: args } as const;
      const state = await openRoundState(sdkCtx, target, services, trace);
      const input = await validateInput(tool, args);
      return endTrace(trace, input.ok ? await this.start(tool, support, capabilities, input.args, state) : input.error);
    } catch (error) {
      throw failTrace(trace, error);
    }
  }

  /**
   * Creates the task of a validated call and sets it going. With `before-task` its questions are
   * rounds of this call (resolved first, then the body runs at once); otherwise the task's
   * resolvers run in the background and their questions park it.
   */
  private async start(
    tool: CompiledTool,
    support: TaskSupport,
    capabilities: TaskRecord['call']['clientCapabilities'],
    args: Record<string, unknown>,
    state: RoundState,
  ): Promise<ToolCallResult> {
    const { services } = state;
    try {
      const beforeTask = support.questions === 'before-task';
      const resolved = beforeTask ? await state.resolve(tool.plan, args) : {};
      if (isInputRequiredResult(resolved)) return resolved;
      if (isHandOff(resolved)) return resolved.result;
      const principal = services.principal(state.ctx);
      // With `before-task` the body is claimed at once, its answers recorded for a resume elsewhere.
      const owner = beforeTask ? crypto.randomUUID() : undefined;
      const answers = beforeTask ? (state.ledger?.answersRecorded() ?? {}) : {};
      const record = this.records.newRecord(tool.name, args, capabilities, principal, owner, answers);
      await this.records.store.create(record);
      state.trace?.task(record.taskId);
      if (owner !== undefined) void this.execution.execute(record, owner, tool, resolved, state, services);
      else void this.execution.advance(record.taskId, contextOf(state.ctx, services), services);
      return createTaskResult(record);
    } catch (error) {
      return toolFailure(error, tool, services, state.trace);
    }
  }

  /** Installs the extension's methods on `mcp`, served by this runner. */
  serve(mcp: McpServer, services: InstanceServices): void {
    registerTaskMethods(mcp, this, services);
  }

  /** `tasks/get`: the task as the caller may see it. */
  async get(taskId: string, sdkCtx: ServerContext, services: InstanceServices): Promise<Record<string, unknown>> {
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
    services: InstanceServices,
  ): Promise<void> {
    await this.visible(taskId, sdkCtx, services);
    const next = await this.records.transition(taskId, (current) =>
      recordAnswers(current, responses, dropped, services.maxAnswerBytes),
    );
    if (next?.status === 'working') void this.execution.advance(taskId, contextOf(sdkCtx, services), services);
  }

  /** `tasks/cancel`: a task not yet finished becomes `cancelled`, and a body running here is signalled. */
  async cancel(taskId: string, sdkCtx: ServerContext, services: InstanceServices): Promise<void> {
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
   * principal. A `working` task whose lease ran out (its process died) is taken over first: this
   * instance resumes it in the background (or records it `failed` past `maxResumes`); when another
   * instance took it first, this one backs off and reads it again.
   */
  private async visible(taskId: string, sdkCtx: ServerContext, services: InstanceServices): Promise<TaskRecord> {
    const record = await this.records.store.get(taskId);
    if (record === undefined || record.principal !== services.principal(sdkCtx)) throw taskNotFound(taskId);
    if (!this.lease.stalled(record)) return record;
    const taken = await this.lease.takeOver(taskId);
    if (taken === undefined) return this.visible(taskId, sdkCtx, services);
    if (taken.status === 'working') void this.execution.advance(taskId, contextOf(sdkCtx, services), services);
    return taken;
  }
}
