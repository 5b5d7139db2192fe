/**
 * A task's record and the rules of writing it: the settings (TTL, polling interval), a new record,
 * compare-and-set transitions (re-read on conflict, status changes announced), and how a task ends
 * (written only by the run holding it). The lease and resumes are lease.ts.
 */
import type { CallToolResult, ProtocolError } from '@modelcontextprotocol/server';

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
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** Whether a task has ended (completed, failed or cancelled). */
export function isTerminal(record: TaskRecord): boolean {
  return TERMINAL.has(record.status);
}

/** Where a bad `tasks` option came from: the server's options. */
export const SERVER = 'new McpResolveServer()';

/** The task records of one server, in its store. */
export class TaskRecords {
  readonly store: TaskStore;
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;

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
