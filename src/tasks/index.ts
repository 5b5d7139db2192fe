/** The Tasks extension (`io.modelcontextprotocol/tasks`): task storage and the wire names. */
export type { MemoryTaskStore, MemoryTaskStoreOptions } from './memoryStore.js';
export { createMemoryTaskStore } from './memoryStore.js';
export type { TaskDeclaration, TaskSupport } from '../round/taskDeclaration.js';
export type { TaskOptions, TaskStatusChange } from './runner.js';
export type { PendingQuestion, TaskAnswer, TaskError, TaskRecord, TaskStatus, TaskStore } from './store.js';
export { TASKS_EXTENSION } from './wire.js';
