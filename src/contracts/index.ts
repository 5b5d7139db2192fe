/**
 * `mcp-resolve/contracts`: what you implement to plug your own backend into a server, with the
 * in-memory implementations the library uses by default. `mcp-resolve/redis` implements each over
 * Redis for a fleet.
 *
 * - The replay guard of sealed `requestState` ({@link ReplayStore}, {@link createMemoryReplayStore})
 *   and the sealing options' types (docs/guides/request-state.md).
 * - The fleet of 2025-11-25 (legacy) sessions ({@link LegacySessionFleet},
 *   {@link createMemorySessionHub}): pass one as the `sessionFleet` hosting option
 *   (docs/guides/scaling.md).
 * - The task store of tools run as tasks ({@link TaskStore}, {@link createMemoryTaskStore}), the
 *   Tasks extension's types and the server's task options (docs/guides/tasks.md).
 * - Where the pages of the server's `answerPage` option and their answers are kept
 *   ({@link AnswerPageBackend}, {@link createMemoryAnswerPageBackend}; docs/guides/questions-everywhere.md).
 * - Where refused answers are counted for the server's `answerAttempts` option ({@link AttemptStore},
 *   {@link createMemoryAttemptStore}; docs/guides/resolvers.md, "Attempts across calls and channels").
 * - The observer the server reports to ({@link Telemetry}); `otel()` from `mcp-resolve/otel` is the
 *   OpenTelemetry one (docs/guides/observability.md).
 *
 * @packageDocumentation
 */
export type { AnswerPageBackend, AnswerPageLimits, AnswerPageRefusal, NewAnswerPage } from '../pageStore/backend.js';
export { createMemoryAnswerPageBackend } from '../pageStore/memoryBackend.js';

export type { AnswerAttemptsOptions } from '../state/attemptStore.js';
export type { AttemptStore, AttemptTally } from '../state/attemptStore.js';
export { createMemoryAttemptStore } from '../state/attemptStore.js';

export { principalFrom } from '../state/binding.js';
export { REQUEST_STATE_KEYS_ENV } from '../state/keys.js';
export type { SealingCodec, SealingOptions } from '../state/options.js';
export type { ReplayStore } from '../state/replay.js';
export { createMemoryReplayStore } from '../state/replay.js';

export { INSTANCE_HEADER } from '../hosting/dualEraHandler.js';
export { createMemorySessionHub } from '../hosting/legacy/memorySessionHub.js';
export type { MemorySessionHub } from '../hosting/legacy/memorySessionHub.js';
export type {
  FleetBus,
  FleetMessage,
  FleetNotification,
  LegacySessionFleet,
  PendingPush,
  SessionAdmission,
  SessionRefusal,
  SharedPushStore,
  SharedSessionRecord,
  SharedSessionStore,
} from '../hosting/legacy/sessionFleet.js';

export { createMemoryTaskStore } from '../tasks/memoryStore.js';
export type { TaskDeclaration, TaskSupport } from '../round/taskDeclaration.js';
export type { TaskOptions, TaskStatusChange } from '../tasks/records.js';
export type { TaskRecord, TaskStatus, TaskStore } from '../tasks/store.js';
export { TASKS_EXTENSION } from '../tasks/wire.js';

export type {
  CarriedTrace,
  RequestInfo,
  RequestTrace,
  RoundOutcome,
  ServedMessage,
  TaskChange,
  Telemetry,
} from '../telemetry/hooks.js';
