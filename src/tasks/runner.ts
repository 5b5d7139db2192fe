/**
 * Running library tools as tasks. A task is a third way for a tool's questions to reach the
 * client, beside multi-round requests and pushed requests: the task parks in `input_required`
 * with the resolvers' questions, `tasks/update` records the answers, and the task resumes. Every
 * step re-reads the task from the store and writes it back with a compare-and-set, so any
 * instance sharing the store can answer or resume a task, and the body is entered exactly once.
 */
import type { CallToolRequest, CallToolResult, InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { inputResponse, isInputRequiredResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { McpResolveError } from '../errors.js';
import { resolvePlan } from '../resolvers/resolvePlan.js';
import { callTool, checkedResult, toolError, toolFailure, validateInput } from '../server/call.js';
import { clientCapabilitiesOf, eraOf } from '../server/requestEra.js';
import type { RoundServices } from '../server/roundScope.js';
import { openRound } from '../server/roundScope.js';
import type { CompiledTool } from '../server/tool.js';
import type { RequestTrace } from '../telemetry/hooks.js';
import { endTrace, startTrace } from '../telemetry/request.js';
import { createMemoryTaskStore } from './memoryStore.js';
import type { TaskError, TaskRecord, TaskStore } from './store.js';
import { TaskRound } from './strategy.js';
import type { TaskSupport } from './declaration.js';
import { createTaskResult, declaresTasks, detailedTask, taskNotFound, tasksNotDeclared } from './wire.js';

/** Server-wide task settings (`McpResolveServerOptions.tasks`). */
export interface TaskOptions {
  /** Where tasks live. @default an in-memory store (one process) */
  readonly store?: TaskStore;
  /** How long a task is kept after creation, in ms. @default 3_600_000 (one hour) */
  readonly ttlMs?: number;
  /** The polling interval suggested to clients, in ms. @default 1_000 */
  readonly pollIntervalMs?: number;
  /**
   * How long a `working` task may go without a sign of life before it is reported `failed` (its
   * process died), in ms: a running body renews its heartbeat every third of it, and a resolver
   * pass must finish within it. @default 30_000
   */
  readonly leaseMs?: number;
  /** Receives failures the task machinery could not record on a task (a store that stopped answering). */
  readonly onerror?: (error: Error) => void;
  /**
   * Called in the process that wrote the change, each time a task's status changes (`working` →
   * `input_required` → `working` → `completed` / `failed` / `cancelled`), with the task's owner
   * and the `notifications/tasks/status` params (the `tasks/get` shape: `taskId`, `status`, and
   * the questions, `result` or `error` the status inlines). The SDK 2.4 `subscriptions/listen`
   * channel carries only list-changed and resource-updated events and knows no principal, so the
   * library does not send these itself: deliver them to `principal`'s clients only. A throw is
   * reported to `onerror` and changes nothing.
   */
  readonly onStatus?: (change: TaskStatusChange) => void;
}

/** One task status change, as {@link TaskOptions.onStatus} receives it. */
export interface TaskStatusChange {
  /** The principal that created the task (`undefined` for an unauthenticated server). */
  readonly principal: string | undefined;
  /** The notification's method. */
  readonly method: 'notifications/tasks/status';
  /** The notification's params: the task as `tasks/get` answers it. */
  readonly params: Record<string, unknown>;
}

const DEFAULT_TTL_MS = 3_600_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
const DEFAULT_LEASE_MS = 30_000;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

const RESPONSE_KINDS = {
  'elicitation/create': 'elicit',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
} as const;

const KIND_NAMES = { elicit: 'an elicitation result', sampling: 'a sampling result', roots: 'a roots list' } as const;

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new McpResolveError(
      'invalid_options',
      `tasks.${name} must be a positive integer number of milliseconds (got ${String(value)}).`,
    );
  }
  return value;
}

/** What a response under `key` is missing to answer `method`, or `undefined` when it has the right shape. */
function shapeProblem(key: string, method: keyof typeof RESPONSE_KINDS, response: unknown): string | undefined {
  const view = inputResponse({ answer: response }, 'answer');
  const expected = RESPONSE_KINDS[method];
  if (view.kind !== expected)
    return `the response under '${key}' is not ${KIND_NAMES[expected]} (it answers ${method})`;
  if (view.kind === 'elicit' && view.action === 'accept' && view.content === undefined) {
    return `the response under '${key}' accepts the elicitation but has no content`;
  }
  return undefined;
}

/** The error a failed task carries, from what was thrown. */
function taskErrorOf(error: ProtocolError): TaskError {
  return { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) };
}

/** Runs one server's task-capable tools and serves `tasks/get`, `tasks/update` and `tasks/cancel`. */
export class TaskRunner {
  private readonly store: TaskStore;
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  /** Bodies running in this process, so a cancel arriving here can signal them. */
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly tools: ReadonlyMap<string, CompiledTool>,
    private readonly options: TaskOptions = {},
  ) {
    this.store = options.store ?? createMemoryTaskStore();
    this.ttlMs = positiveInteger('ttlMs', options.ttlMs, DEFAULT_TTL_MS);
    this.pollIntervalMs = positiveInteger('pollIntervalMs', options.pollIntervalMs, DEFAULT_POLL_INTERVAL_MS);
    this.leaseMs = positiveInteger('leaseMs', options.leaseMs, DEFAULT_LEASE_MS);
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
      const record = this.newRecord(tool, validated.args, capabilities, principal, true);
      await this.store.create(record);
      trace?.task(record.taskId);
      const params = { ...validated.args, ...resolved };
      void this.execute(record.taskId, tool, params, round.ctx, services);
      return createTaskResult(record);
    }
    const validated = await validateInput(tool, rawArgs);
    if (!validated.ok) return validated.result;
    const record = this.newRecord(tool, validated.args, capabilities, principal, false);
    await this.store.create(record);
    trace?.task(record.taskId);
    void this.advance(record.taskId, this.baseContext(sdkCtx, services), services);
    return createTaskResult(record);
  }

  /** `tasks/get`: the task as the caller may see it. */
  async get(taskId: string, sdkCtx: ServerContext, services: RoundServices): Promise<Record<string, unknown>> {
    return detailedTask(await this.visible(taskId, sdkCtx, services));
  }

  /**
   * `tasks/update`: records the answers to pending questions; answers under keys that are not
   * pending are ignored (the extension's rule), and a task with no question left resumes. An
   * answer of the wrong shape (including one the SDK dropped as not a bare response, listed in
   * `dropped`) rejects the whole update, and nothing is recorded.
   */
  async update(
    taskId: string,
    responses: Readonly<Record<string, unknown>>,
    dropped: readonly string[],
    sdkCtx: ServerContext,
    services: RoundServices,
  ): Promise<void> {
    await this.visible(taskId, sdkCtx, services);
    const next = await this.transition(taskId, (current) => {
      if (current.status !== 'input_required') return undefined;
      const answered = Object.keys(responses).filter((key) => Object.hasOwn(current.pending, key));
      const problems = dropped
        .filter((key) => Object.hasOwn(current.pending, key))
        .map((key) => `the response under '${key}' is not a bare result object`);
      if (answered.length === 0 && problems.length === 0) return undefined;
      problems.push(
        ...answered.flatMap((key) => {
          const question = current.pending[key];
          const problem = question && shapeProblem(key, question.request.method, responses[key]);
          return problem === undefined ? [] : [problem];
        }),
      );
      if (problems.length > 0) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `tasks/update: ${problems.join('; ')}. Nothing was recorded; answer each key with the result its inputRequest asks for.`,
        );
      }
      const pending = { ...current.pending };
      const answers = { ...current.answers };
      for (const key of answered) {
        const question = pending[key];
        if (question === undefined) continue;
        answers[question.node] = { digest: question.digest, response: responses[key] };
        delete pending[key];
      }
      const { statusMessage: _previous, ...rest } = current;
      return Object.keys(pending).length === 0
        ? { ...rest, status: 'working', pending, answers }
        : { ...rest, pending, answers };
    });
    if (next?.status === 'working') void this.advance(taskId, this.baseContext(sdkCtx, services), services);
  }

  /** `tasks/cancel`: a task not yet finished becomes `cancelled`, and a body running here is signalled. */
  async cancel(taskId: string, sdkCtx: ServerContext, services: RoundServices): Promise<void> {
    await this.visible(taskId, sdkCtx, services);
    const next = await this.transition(taskId, (current) =>
      TERMINAL.has(current.status)
        ? undefined
        : { ...current, status: 'cancelled', pending: {}, statusMessage: 'Cancelled by the client.' },
    );
    if (next !== undefined) this.running.get(taskId)?.abort(new Error('The task was cancelled.'));
  }

  /**
   * The task, or the not-found error when it does not exist, expired, or belongs to another
   * principal. A `working` task whose lease ran out (its process died) is recorded `failed` first.
   */
  private async visible(taskId: string, sdkCtx: ServerContext, services: RoundServices): Promise<TaskRecord> {
    const record = await this.store.get(taskId);
    if (record === undefined || record.principal !== services.principal(sdkCtx)) throw taskNotFound(taskId);
    if (!this.stalled(record)) return record;
    const failed = await this.transition(taskId, (current) =>
      this.stalled(current)
        ? {
            ...current,
            status: 'failed',
            pending: {},
            error: this.lostError(),
            statusMessage: this.lostError().message,
          }
        : undefined,
    );
    return failed ?? (await this.visible(taskId, sdkCtx, services));
  }

  /** Whether a `working` task has shown no sign of life (a write or a heartbeat) for longer than the lease. */
  private stalled(record: TaskRecord): boolean {
    if (record.status !== 'working') return false;
    const alive = Math.max(record.heartbeatAt ?? 0, Date.parse(record.lastUpdatedAt));
    return Date.now() - alive > this.leaseMs;
  }

  /** The error of a task whose process stopped while it was `working`. */
  private lostError(): TaskError {
    return {
      code: ProtocolErrorCode.InternalError,
      message: `Task lost: the server process running it stopped (no heartbeat for ${this.leaseMs} ms). Start the tool again.`,
    };
  }

  /** Renews a running body's heartbeat every third of the lease until the returned function is called. */
  private heartbeat(taskId: string): () => void {
    const timer = setInterval(
      () => {
        this.transition(taskId, (current) =>
          current.status === 'working' ? { ...current, heartbeatAt: Date.now() } : undefined,
        ).catch((error: unknown) => this.options.onerror?.(error instanceof Error ? error : new Error(String(error))));
      },
      Math.max(Math.floor(this.leaseMs / 3), 1),
    );
    timer.unref?.();
    return () => clearInterval(timer);
  }

  private newRecord(
    tool: CompiledTool,
    args: Record<string, unknown>,
    capabilities: TaskRecord['call']['clientCapabilities'],
    principal: string | undefined,
    bodyStarted: boolean,
  ): TaskRecord {
    const now = Date.now();
    const at = new Date(now).toISOString();
    return {
      taskId: crypto.randomUUID(),
      revision: 0,
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      ttlMs: this.ttlMs,
      expiresAt: now + this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      ...(principal !== undefined && { principal }),
      call: {
        tool: tool.name,
        arguments: args,
        ...(capabilities !== undefined && { clientCapabilities: capabilities }),
      },
      pending: {},
      answers: {},
      bodyStarted,
    };
  }

  /**
   * Applies `change` to the stored task with compare-and-set, re-reading on conflict. Resolves the
   * written record, or `undefined` when the task is gone or `change` wants no write.
   */
  private async transition(
    taskId: string,
    change: (current: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    for (;;) {
      const current = await this.store.get(taskId);
      if (current === undefined) return undefined;
      const changed = change(current);
      if (changed === undefined) return undefined;
      const next = { ...changed, revision: current.revision + 1, lastUpdatedAt: new Date().toISOString() };
      if (await this.store.replace(next, current.revision)) {
        if (next.status !== current.status) this.announce(next);
        return next;
      }
    }
  }

  /** Hands a status change to `onStatus`; a throw there is reported, never propagated. */
  private announce(record: TaskRecord): void {
    const { onStatus, onerror } = this.options;
    if (onStatus === undefined) return;
    try {
      onStatus({ principal: record.principal, method: 'notifications/tasks/status', params: detailedTask(record) });
    } catch (error) {
      onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** The context a task's resolvers and body run in: the triggering request's, with the task's signal. */
  private baseContext(sdkCtx: ServerContext, services: RoundServices): ToolContext {
    return { ...sdkCtx, era: 'modern', clientCapabilities: clientCapabilitiesOf(sdkCtx, services.server, 'modern') };
  }

  /**
   * Runs a `working` task as far as it goes: a pass of its resolvers, then either parks it on the
   * questions found, or claims the body (once) and runs it.
   */
  private async advance(taskId: string, base: ToolContext, services: RoundServices): Promise<void> {
    try {
      const record = await this.store.get(taskId);
      if (record === undefined || record.status !== 'working' || record.bodyStarted) return;
      const tool = this.tools.get(record.call.tool);
      if (tool === undefined) {
        await this.failWith(
          taskId,
          new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${record.call.tool} not found`),
        );
        return;
      }
      const capabilities = record.call.clientCapabilities;
      const ctx: ToolContext = { ...base, clientCapabilities: capabilities };
      const round = new TaskRound(record.answers, capabilities);
      let resolved;
      try {
        resolved = await resolvePlan(tool.plan, record.call.arguments, ctx, { strategy: () => round });
      } catch (error) {
        await this.fail(taskId, error, tool, services);
        return;
      }
      const unchanged = (current: TaskRecord) =>
        current.revision === record.revision && current.status === 'working' && !current.bodyStarted;
      if (isInputRequiredResult(resolved)) {
        await this.transition(taskId, (current) => {
          if (!unchanged(current)) return undefined;
          const { statusMessage: _previous, ...rest } = current;
          return {
            ...rest,
            status: 'input_required',
            pending: round.parked,
            answers: round.answers,
            ...(round.rejected.length > 0 && { statusMessage: round.rejected.join(' ') }),
          };
        });
        return;
      }
      const claimed = await this.transition(taskId, (current) =>
        unchanged(current) ? { ...current, bodyStarted: true, answers: round.answers } : undefined,
      );
      if (claimed === undefined) return;
      await this.execute(taskId, tool, { ...record.call.arguments, ...resolved }, ctx, services);
    } catch (error) {
      this.options.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Enters the body (its claim already written) and records how it ended. */
  private async execute(
    taskId: string,
    tool: CompiledTool,
    params: Record<string, unknown>,
    base: ToolContext,
    services: RoundServices,
  ): Promise<void> {
    const controller = new AbortController();
    this.running.set(taskId, controller);
    const stopHeartbeat = this.heartbeat(taskId);
    const ctx: ToolContext = { ...base, mcpReq: { ...base.mcpReq, signal: controller.signal } };
    try {
      const value: unknown = await tool.body(params, ctx);
      await this.complete(
        taskId,
        isInputRequiredResult(value)
          ? toolError(
              `Tool ${tool.name} returned input_required from its body while running as a task; ask through a resolver instead.`,
            )
          : await checkedResult(tool, value, services),
      );
    } catch (error) {
      await this.fail(taskId, error, tool, services).catch((failure: unknown) =>
        this.options.onerror?.(failure instanceof Error ? failure : new Error(String(failure))),
      );
    } finally {
      stopHeartbeat();
      this.running.delete(taskId);
    }
  }

  /** Records that a task ended with a tool result (`completed`; a tool error is `completed` with `isError`). */
  private complete(taskId: string, result: CallToolResult): Promise<void> {
    return this.settle(taskId, { status: 'completed', result: { ...result } });
  }

  /** Records that a task ended by throwing: a protocol error makes it `failed`, anything else is the tool's error result. */
  private fail(taskId: string, error: unknown, tool: CompiledTool, services: RoundServices): Promise<void> {
    if (error instanceof ProtocolError) return this.failWith(taskId, error);
    return this.complete(taskId, toolFailure(error, tool, services));
  }

  /** Records that a task failed with a protocol (JSON-RPC) error, inlined as `error`. */
  private failWith(taskId: string, error: ProtocolError): Promise<void> {
    return this.settle(taskId, { status: 'failed', error: taskErrorOf(error), statusMessage: error.message });
  }

  /** Writes how a task ended, unless it was cancelled or finished meanwhile (which keeps its status). */
  private async settle(
    taskId: string,
    update: Pick<TaskRecord, 'status' | 'result' | 'error' | 'statusMessage'>,
  ): Promise<void> {
    await this.transition(taskId, (current) => {
      if (TERMINAL.has(current.status)) return undefined;
      const { statusMessage: _previous, ...rest } = current;
      return { ...rest, ...update, pending: {} };
    });
  }
}
