/**
 * Journaled steps that outlive the process running them. A body run as a task finds this on its
 * context: `journaled()` starts from the steps recorded by earlier runs, and records each step it
 * completes in the task before going on, so a body resumed on another instance skips them.
 */

/** The steps of one task's body, as its run sees them. */
export interface DurableSteps {
  /** Steps completed by earlier runs, by occurrence key (`[value]`, or `[]` for `undefined`). */
  readonly recorded: Readonly<Record<string, readonly unknown[]>>;
  /** Records a completed step; rejects when the run no longer holds the task (the body must stop). */
  record(key: string, entry: readonly unknown[]): Promise<void>;
}

/** The key of a task body's durable steps on its context. */
export const DURABLE_STEPS = Symbol('mcp-resolve.durable-steps');

/** The durable steps of the task body `ctx` belongs to, if it runs as a task. */
export function durableStepsIn(ctx: object): DurableSteps | undefined {
  return (ctx as { readonly [DURABLE_STEPS]?: DurableSteps })[DURABLE_STEPS];
}
