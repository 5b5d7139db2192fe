/**
 * Where tasks live between requests. A task's state is written only by the server: the client
 * holds nothing but the task id, so nothing at rest is client-controlled. Every write is a
 * compare-and-set on the record's revision, which is what lets any instance sharing a store serve
 * `tasks/get`, `tasks/update` and `tasks/cancel`, and resume a task whose process died, with
 * exactly one instance winning each step.
 */
import type { ClientCapabilities, InputRequest } from '@modelcontextprotocol/server';

/** A task's status, as the Tasks extension names them. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** One task as stored. Records are replaced whole; `revision` grows by one on every write. */
export interface TaskRecord {
  readonly taskId: string;
  readonly revision: number;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** How long the task is kept after creation, in ms. */
  readonly ttlMs: number;
  /** Epoch ms after which the store forgets the task (`createdAt` + `ttlMs`). */
  readonly expiresAt: number;
  readonly pollIntervalMs: number;
  /** Who created it; other principals are told the task does not exist. */
  readonly principal?: string;
  /** The call the task runs. */
  readonly call: {
    readonly tool: string;
    readonly arguments: Record<string, unknown>;
    readonly clientCapabilities?: ClientCapabilities;
  };
  /** Questions waiting for an answer, by opaque key the server minted (non-empty exactly when `input_required`). */
  readonly pending: Record<
    string,
    {
      /** The resolver (plan node) the question belongs to. */
      readonly node: string;
      /** The digest that pins an answer to this exact question. */
      readonly digest: string;
      /** The wire request the client sees in `inputRequests`. */
      readonly request: InputRequest;
    }
  >;
  /** Answers received so far, by resolver, each pinned (`digest`) to the question it answered. */
  readonly answers: Record<string, { readonly digest: string; readonly response: unknown }>;
  /** How many times each resolver's question was asked after a rejected answer, counted toward its `attempts`. */
  readonly attempts?: Record<string, number>;
  /**
   * Set once the body has been entered by a run that holds the task (`owner`). Cleared only when
   * another instance resumes the task after the process running it stopped.
   */
  readonly bodyStarted: boolean;
  /**
   * The run holding the body (a random token written when the body is claimed). Every write of the
   * run (heartbeat, journaled step, outcome) requires it still to be here: once another instance
   * resumed the task, the old run's writes are refused.
   */
  readonly owner?: string;
  /** How many times the task was resumed after the process running it stopped (at most `maxResumes`). */
  readonly resumes?: number;
  /**
   * The body's completed `journaled()` steps, by occurrence key (`[value]`, or `[]` for
   * `undefined`): a resumed body gets them back instead of running them again.
   */
  readonly steps?: Record<string, readonly unknown[]>;
  /** When the process running the body last renewed its lease (epoch ms). */
  readonly heartbeatAt?: number;
  /** The tool result, when `completed`. */
  readonly result?: Record<string, unknown>;
  /** The JSON-RPC error, when `failed`. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** A question a parked task waits on (an entry of {@link TaskRecord.pending}). */
export type PendingQuestion = TaskRecord['pending'][string];

/** An answer recorded for a resolver (an entry of {@link TaskRecord.answers}). */
export type TaskAnswer = TaskRecord['answers'][string];

/** The JSON-RPC error a failed task carries ({@link TaskRecord.error}). */
export type TaskError = NonNullable<TaskRecord['error']>;

/**
 * Task persistence. Implementations must make `create` durable before it resolves (a `get` right
 * after it finds the task) and must forget a task once its `expiresAt` has passed. A store over a
 * network should settle every call within a deadline and never apply a write after rejecting it
 * (the Redis store's writes carry their deadline, which Redis checks); what a call rejects with
 * reaches the client masked, with a ref.
 */
export interface TaskStore {
  /** Stores a new task. */
  create(record: TaskRecord): Promise<void>;
  /** The task, or `undefined` when it does not exist or has expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Replaces the task when its stored revision is still `expectedRevision`; resolves `false` when
   * another write came first (or the task is gone), and the caller re-reads and decides again.
   */
  replace(record: TaskRecord, expectedRevision: number): Promise<boolean>;
}
