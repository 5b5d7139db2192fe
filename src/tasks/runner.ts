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
import { isInputRequiredResult } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { callTool, toolFailure, validateInput } from '../round/call.js';
import { clientCapabilitiesOf, eraOf } from '../round/requestEra.js';
import type { RoundServices } from '../round/roundScope.js';
import { openRound } from '../round/roundScope.js';
import type { CompiledTool } from '../round/tool.js';
import type { RequestTrace } from '../telemetry/hooks.js';
import { endTrace, startTrace } from '../round/requestTrace.js';
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
  async call(
    tool: CompiledTool,
    support: TaskSupport,
    request: CallToolRequest,
    sdkCtx: ServerContext,
    services: RoundServices,
  ): Promise<CallToolResult | InputRequiredResult> {
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
    const trace = startTrace(services, sdkCtx, 'tools/call', tool.name, request.params);
    const created = () => this.create(tool, support, request, sdkCtx, services, capabilities, trace);
    return trace === undefined ? created() : endTrace(trace, created);
  }

  /** Creates the task of a `tools/call` (asking the questions first when the tool says `before-task`). */
  private async create(
    tool: CompiledTool,
    support: TaskSupport,
    request: CallToolRequest,
    sdkCtx: ServerContext,
    services: RoundServices,
    capabilities: TaskRecord['call']['clientCapabilities'],
    trace: RequestTrace | undefined,
  ): Promise<CallToolResult | InputRequiredResult> {
    const rawArgs = request.params.arguments ?? {};
    const principal = services.principal(sdkCtx);
    if (support.questions === 'before-task') {
      const round = await openRound(
        sdkCtx,
        { method: 'tools/call', target: tool.name, arguments: rawArgs },
        services,
        trace,
      );
      const validated = await validateInput(tool, rawArgs);
      if (!validated.ok) return validated.result;
      let resolved: Record<string, unknown> | InputRequiredResult;
      try {
        resolved = await round.resolve(tool.plan, validated.args);
      } catch (error) {
        return toolFailure(error, tool, services, trace);
      }
      if (isInputRequiredResult(resolved)) return resolved;
      const record = this.records.newRecord(tool.name, validated.args, capabilities, principal, true);
      await this.records.store.create(record);
      trace?.task(record.taskId);
      const params = { ...validated.args, ...resolved };
      void this.execution.execute(record.taskId, tool, params, round.ctx, services);
      return createTaskResult(record);
    }
    const validated = await validateInput(tool, rawArgs);
    if (!validated.ok) return validated.result;
    const record = this.records.newRecord(tool.name, validated.args, capabilities, principal, false);
    await this.records.store.create(record);
    trace?.task(record.taskId);
    void this.execution.advance(record.taskId, baseContext(sdkCtx, services), services);
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
    const next = await this.records.transition(taskId, (current) => recordAnswers(current, responses, dropped));
    if (next?.status === 'working') void this.execution.advance(taskId, baseContext(sdkCtx, services), services);
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

/** The context a task's resolvers and body run in: the triggering request's, with the task's signal. */
function baseContext(sdkCtx: ServerContext, services: RoundServices): ToolContext {
  return { ...sdkCtx, era: 'modern', clientCapabilities: clientCapabilitiesOf(sdkCtx, services.server, 'modern') };
}
