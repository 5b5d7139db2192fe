/** The default {@link TaskStore}: one process's memory, with expiry. */
import type { TaskRecord, TaskStore } from './store.js';

/** Options of {@link createMemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** The clock, in epoch ms (tests move it). @default Date.now */
  readonly now?: () => number;
}

/**
 * A task store in this process's memory. Tasks are dropped when read after `expiresAt` and swept
 * on every create, so memory holds at most the tasks still alive plus those never read again
 * since the last create. Every instance that must serve a task has to share the store: use the
 * Redis store from `mcp-resolve/redis` for more than one process.
 */
export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore {
  const now = options.now ?? Date.now;
  const tasks = new Map<string, TaskRecord>();
  const alive = (taskId: string): TaskRecord | undefined => {
    const record = tasks.get(taskId);
    if (record !== undefined && record.expiresAt <= now()) {
      tasks.delete(taskId);
      return undefined;
    }
    return record;
  };
  return {
    create(record) {
      for (const [taskId, stored] of tasks) if (stored.expiresAt <= now()) tasks.delete(taskId);
      tasks.set(record.taskId, structuredClone(record));
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
