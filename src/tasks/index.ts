/**
 * `mcp-resolve/tasks`: tools run as tasks (the Tasks extension, `io.modelcontextprotocol/tasks`):
 * how a tool declares it, the server's task options, and the task store contract with its
 * in-memory implementation (a shared store for a fleet comes from `mcp-resolve/redis`).
 *
 * @packageDocumentation
 */
export type { MemoryTaskStore, MemoryTaskStoreOptions } from './memoryStore.js';
export { createMemoryTaskStore } from './memoryStore.js';
export type { TaskDeclaration, TaskSupport } from '../round/taskDeclaration.js';
export type { TaskOptions, TaskStatusChange } from './records.js';
export type { PendingQuestion, TaskAnswer, TaskError, TaskRecord, TaskStatus, TaskStore } from './store.js';
export { TASKS_EXTENSION } from './wire.js';
