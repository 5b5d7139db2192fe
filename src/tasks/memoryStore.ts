/** The default {@link TaskStore}: one process's memory, with expiry. */
import type { TaskRecord, TaskStore } from './store.js';

/**
 * A task store in this process's memory. Tasks are dropped when read after `expiresAt`, and swept
 * on a timer that runs only while tasks are held (unref'd: it never keeps the process alive), so
 * abandoned tasks give their memory back within `sweepIntervalMs` of expiring. Every instance that must serve a
 * task has to share the store: use the Redis store from `mcp-resolve/redis` for more than one process.
 */
export function createMemoryTaskStore(
  options: {
    /** The clock, in epoch ms (tests move it). @default Date.now */
    readonly now?: () => number;
    /** How often expired tasks are swept while any task is held, in ms. @default 60_000 */
    readonly sweepIntervalMs?: number;
  } = {},
): TaskStore & {
  /** How many tasks are held (expired ones count until swept), for monitoring. */
  readonly size: number;
} {
  const now = options.now ?? Date.now;
  const sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  const tasks = new Map<string, TaskRecord>();
  let timer: ReturnType<typeof setInterval> | undefined;
  const sweep = (): void => {
    const at = now();
    for (const [taskId, stored] of tasks) if (stored.expiresAt <= at) tasks.delete(taskId);
    if (tasks.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const alive = (taskId: string): TaskRecord | undefined => {
    const record = tasks.get(taskId);
    if (record !== undefined && record.expiresAt <= now()) {
      tasks.delete(taskId);
      return undefined;
    }
    return record;
  };
  return {
    get size() {
      return tasks.size;
    },
    create(record) {
      tasks.set(record.taskId, structuredClone(record));
      if (timer === undefined) {
        timer = setInterval(sweep, sweepIntervalMs);
        timer.unref?.();
      }
      return Promise.resolve();
    },
    get(taskId) {
      const record = alive(taskId);
      return Promise.resolve(record === undefined ? undefined : structuredClone(record));
    },
    replace(record, expectedRevision) {
      const stored = alive(record.taskId);
      if (stored === undefined || stored.revision !== expectedRevision) return Promise.resolve(false);
      tasks.set(record.taskId, structuredClone(record));
      return Promise.resolve(true);
    },
  };
}
