/**
 * A task's record and the rules of writing it: the settings (TTL, polling interval, lease, resume
 * bound), a new record, compare-and-set transitions (re-read on conflict, status changes
 * announced), the lease (a `working` task with no sign of life is taken over by another instance,
 * or failed once resumed `maxResumes` times), the body's run (its owner token fencing every write:
 * heartbeat, journaled steps, outcome), and how a task ends.
 */
import type { CallToolResult, ProtocolError } from '@modelcontextprotocol/server';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

import { MILLISECONDS, positiveInteger } from '../optionChecks.js';
import { questionCapabilities } from '../questions/bounds.js';
import { createMemoryTaskStore } from './memoryStore.js';
import type { TaskError, TaskRecord, TaskStore } from './store.js';
import { detailedTask } from './wire.js';

/** Server-wide task settings (`McpResolveServerOptions.tasks`). */
export interface TaskOptions {
  /** Where tasks live. @default an in-memory store (one process) */
  readonly store?: TaskStore;
  /** How long a task is kept after creation, in ms. @default 3_600_000 (one hour) */
  readonly ttlMs?: number;
  /** The polling interval suggested to clients, in ms. @default 1_000 */
  readonly pollIntervalMs?: number;
  /**
   * How long a `working` task may go without a sign of life before another instance resumes it (its
   * process died), in ms: a running body renews its heartbeat every third of it, and a resolver
   * pass must finish within it. @default 30_000
   */
  readonly leaseMs?: number;
  /**
   * How many times a task is resumed after the process running it stopped; the next time, it is
   * reported `failed` ("Task lost"). A resumed task runs its resolvers again from the recorded
   * answers and its body from the top, skipping the `journaled()` steps it recorded. 0 never
   * resumes (a task whose process died is failed). @default 3
   */
  readonly maxResumes?: number;
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
const DEFAULT_MAX_RESUMES = 3;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** Whether a task has ended (completed, failed or cancelled). */
export function isTerminal(record: TaskRecord): boolean {
  return TERMINAL.has(record.status);
}

/** Why a run stops: it no longer holds its task (another instance resumed it, or it was cancelled or ended). */
export class RunLost extends Error {
  constructor(taskId: string) {
    super(
      `Task ${taskId}: this run no longer holds the task (it was resumed on another instance, cancelled or ended); it stops here.`,
    );
    this.name = 'RunLost';
  }
}

/** Whether the run `owner` still holds the task: its body is running there, and nobody took it over. */
function holds(record: TaskRecord, owner: string): boolean {
  return record.status === 'working' && record.owner === owner;
}

/** Where a bad `tasks` option came from: the server's options. */
const SERVER = 'new McpResolveServer()';

/** The task records of one server, in its store. */
export class TaskRecords {
  readonly store: TaskStore;
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly maxResumes: number;

  constructor(private readonly options: TaskOptions = {}) {
    this.store = options.store ?? createMemoryTaskStore();
    this.ttlMs = positiveInteger(SERVER, 'tasks.ttlMs', options.ttlMs, DEFAULT_TTL_MS, { unit: MILLISECONDS });
    this.pollIntervalMs = positiveInteger(
      SERVER,
      'tasks.pollIntervalMs',
      options.pollIntervalMs,
      DEFAULT_POLL_INTERVAL_MS,
      {
        unit: MILLISECONDS,
      },
    );
    this.leaseMs = positiveInteger(SERVER, 'tasks.leaseMs', options.leaseMs, DEFAULT_LEASE_MS, { unit: MILLISECONDS });
    this.maxResumes = positiveInteger(SERVER, 'tasks.maxResumes', options.maxResumes, DEFAULT_MAX_RESUMES, {
      zero: true,
    });
  }

  /** Reports a failure the task machinery could not record on a task. */
  report(error: unknown): void {
    this.options.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }

  /**
   * A new `working` task of `tool` with these arguments, keeping only the client capabilities
   * questions read. With `owner` its body is claimed by that run already (its questions were
   * answered before the task, `answers` records them).
   */
  newRecord(
    tool: string,
    args: Record<string, unknown>,
    capabilities: TaskRecord['call']['clientCapabilities'],
    principal: string | undefined,
    owner?: string,
    answers: TaskRecord['answers'] = {},
  ): TaskRecord {
    const now = Date.now();
    const at = new Date(now).toISOString();
    // Only what the library reads of the client is kept (for the task's whole TTL), whatever it declared.
    const kept = questionCapabilities(capabilities);
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
      call: { tool, arguments: args, ...(kept !== undefined && { clientCapabilities: kept }) },
      pending: {},
      answers,
      bodyStarted: owner !== undefined,
      ...(owner !== undefined && { owner }),
    };
  }

  /**
   * Applies `change` to the stored task with compare-and-set, re-reading on conflict. Resolves the
   * written record, or `undefined` when the task is gone or `change` wants no write.
   */
  async transition(
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
    const { onStatus } = this.options;
    if (onStatus === undefined) return;
    try {
      onStatus({ principal: record.principal, method: 'notifications/tasks/status', params: detailedTask(record) });
    } catch (error) {
      this.report(error);
    }
  }

  /** Whether a `working` task has shown no sign of life (a write or a heartbeat) for longer than the lease. */
  stalled(record: TaskRecord): boolean {
    if (record.status !== 'working') return false;
    const alive = Math.max(record.heartbeatAt ?? 0, Date.parse(record.lastUpdatedAt));
    return Date.now() - alive > this.leaseMs;
  }

  /**
   * Takes over a stalled task (its process stopped) with one compare-and-set: of several instances
   * finding it at once, exactly one writes, and the others re-read a task that is no longer stalled
   * and back off. The task is `working` again with its body unclaimed (to run again from its
   * recorded answers and steps) or, once it was resumed `maxResumes` times, `failed`. Resolves the
   * record written, or `undefined` when the task was not stalled (any more).
   */
  takeOver(taskId: string): Promise<TaskRecord | undefined> {
    return this.transition(taskId, (current) => {
      if (!this.stalled(current)) return undefined;
      const resumes = (current.resumes ?? 0) + 1;
      const { owner: _lost, statusMessage: _previous, ...rest } = current;
      if (resumes > this.maxResumes) {
        const error: TaskError = {
          code: ProtocolErrorCode.InternalError,
          message:
            `Task lost: the server process running it stopped (no heartbeat for ${this.leaseMs} ms), ` +
            `after ${resumes - 1} resume(s) (tasks.maxResumes is ${this.maxResumes}). Start the tool again.`,
        };
        return { ...rest, status: 'failed', pending: {}, error, statusMessage: error.message };
      }
      return {
        ...rest,
        bodyStarted: false,
        resumes,
        statusMessage: `Resumed on another server instance after the one running it stopped (resume ${resumes} of at most ${this.maxResumes}).`,
      };
    });
  }

  /**
   * Renews a running body's heartbeat every third of the lease until the returned function is
   * called. When the run no longer holds the task (another instance resumed it, or it was
   * cancelled or ended), `lost` is called once and the heartbeat stops.
   */
  heartbeat(taskId: string, owner: string, lost: () => void): () => void {
    const timer = setInterval(
      () => {
        this.transition(taskId, (current) => (holds(current, owner) ? { ...current, heartbeatAt: Date.now() } : undefined))
          .then((renewed) => {
            if (renewed !== undefined) return;
            clearInterval(timer);
            lost();
          })
          .catch((error: unknown) => this.report(error));
      },
      Math.max(Math.floor(this.leaseMs / 3), 1),
    );
    timer.unref?.();
    return () => clearInterval(timer);
  }

  /**
   * Records a completed `journaled()` step of the run `owner` in the task, before the body goes on;
   * throws when the run no longer holds the task (the body then stops: another instance runs it).
   */
  async recordStep(taskId: string, owner: string, key: string, entry: readonly unknown[]): Promise<void> {
    const written = await this.transition(taskId, (current) =>
      holds(current, owner) ? { ...current, steps: { ...current.steps, [key]: entry } } : undefined,
    );
    if (written === undefined) throw new RunLost(taskId);
  }

  /** Records that a task ended with a tool result (`completed`; a tool error is `completed` with `isError`). */
  complete(taskId: string, owner: string | undefined, result: CallToolResult): Promise<void> {
    return this.settle(taskId, owner, { status: 'completed', result: { ...result } });
  }

  /** Records that a task failed with a protocol (JSON-RPC) error, inlined as `error`. */
  failWith(taskId: string, owner: string | undefined, error: ProtocolError): Promise<void> {
    const inlined: TaskError = {
      code: error.code,
      message: error.message,
      ...(error.data !== undefined && { data: error.data }),
    };
    return this.settle(taskId, owner, { status: 'failed', error: inlined, statusMessage: error.message });
  }

  /**
   * Writes how a task ended, unless it was cancelled or finished meanwhile (which keeps its status)
   * or another run holds it now (`owner`: the run that ended; `undefined` for a resolver pass).
   */
  private async settle(
    taskId: string,
    owner: string | undefined,
    update: Pick<TaskRecord, 'status' | 'result' | 'error' | 'statusMessage'>,
  ): Promise<void> {
    await this.transition(taskId, (current) => {
      if (isTerminal(current) || current.owner !== owner) return undefined;
      const { statusMessage: _previous, ...rest } = current;
      return { ...rest, ...update, pending: {} };
    });
  }
}
