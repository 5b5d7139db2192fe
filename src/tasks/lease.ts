/**
 * The lease of a task's body, and resuming a task whose instance died: a `working` task with no
 * sign of life for `leaseMs` is lost, and one instance takes it over (a compare-and-set) to run it
 * again, at most `maxResumes` times. The run holding the body renews the lease (its heartbeat) and
 * records its `journaled()` steps; each of its writes is refused once another run holds the task.
 */
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

import { MILLISECONDS, positiveInteger } from '../optionChecks.js';
import type { TaskOptions, TaskRecords } from './records.js';
import { SERVER } from './records.js';
import type { TaskError, TaskRecord } from './store.js';

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_MAX_RESUMES = 3;

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

/** The lease rules of one server's tasks, over its records. */
export class TaskLease {
  private readonly leaseMs: number;
  private readonly maxResumes: number;

  constructor(
    private readonly records: TaskRecords,
    options: Pick<TaskOptions, 'leaseMs' | 'maxResumes'> = {},
  ) {
    this.leaseMs = positiveInteger(SERVER, 'tasks.leaseMs', options.leaseMs, DEFAULT_LEASE_MS, { unit: MILLISECONDS });
    this.maxResumes = positiveInteger(SERVER, 'tasks.maxResumes', options.maxResumes, DEFAULT_MAX_RESUMES, {
      zero: true,
    });
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
    return this.records.transition(taskId, (current) => {
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
        this.records
          .transition(taskId, (current) =>
            holds(current, owner) ? { ...current, heartbeatAt: Date.now() } : undefined,
          )
          .then((renewed) => {
            if (renewed !== undefined) return;
            clearInterval(timer);
            lost();
          })
          .catch((error: unknown) => this.records.report(error));
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
    const written = await this.records.transition(taskId, (current) =>
      holds(current, owner) ? { ...current, steps: { ...current.steps, [key]: entry } } : undefined,
    );
    if (written === undefined) throw new RunLost(taskId);
  }
}
