/**
 * mcp-resolve: resolver dependency injection, era-agnostic questions and sealed state for MCP servers.
 * Runtime-neutral: Web-standard APIs only (Workers, Deno, Bun, Node); Node hosting is `mcp-resolve/node`.
 *
 * @packageDocumentation
 */
export type { Era, ToolContext } from './context.js';
export type {
  McpResolveErrorArguments,
  McpResolveErrorCode,
  McpResolveErrorConstructor,
  McpResolveErrorData,
  McpResolveErrorOf,
  McpResolveErrorOptions,
} from './errors.js';
export { McpResolveError, ToolError } from './errors.js';
export type {
  Answered,
  Ask,
  Elicit,
  ElicitationResult,
  ElicitOptions,
  ElicitUrl,
  CompleteElicitation,
  ElicitUrlOptions,
  FlatForm,
  UrlElicitation,
  ListRoots,
  Sample,
  SampleResult,
} from './questions/markers.js';
export { DEFAULT_ANSWER_ATTEMPTS, elicit, elicitUrl, listRoots, sample, sampledText } from './questions/markers.js';
export type {
  AnyResolver,
  ArgShape,
  DeclarationError,
  Dependency,
  DependencyValue,
  DepShape,
  OutcomeOf,
  Resolver,
  ResolverDeclaration,
  ValueOf,
} from './resolvers/resolver.js';
export { outcome, resolver } from './resolvers/resolver.js';
export type { ErrorHook, FailureInfo } from './round/masking.js';
export type { McpResolveServerOptions } from './server/options.js';
export type { ToolStep } from './server/server.js';
export type {
  CarriedTrace,
  QuestionKind,
  RequestInfo,
  RequestTrace,
  RoundOutcome,
  ServedMessage,
  StepEnd,
  TaskChange,
  Telemetry,
} from './telemetry/hooks.js';
export { McpResolveServer } from './server/server.js';
export type { InputValues, ResolvedValues, ResolveShape, ToolBody, ToolDeclaration, ToolInput } from './round/tool.js';
export type { PromptArgs, PromptBody, PromptDeclaration } from './round/prompt.js';
export type { ResourceRead } from './round/resource.js';
export type {
  DualEraHandler,
  DualEraHttpOptions,
  FleetMessage,
  FleetNotification,
  LegacySessionFleet,
  MemorySessionHub,
  ServerSource,
  SharedSessionRecord,
} from './hosting/index.js';
export { createDualEraHandler, createMemorySessionHub, INSTANCE_HEADER } from './hosting/index.js';
export type {
  MemoryReplayStore,
  ReplayStore,
  SealingCodec,
  SealingLogger,
  SealingOptions,
  SdkRequestStateSealing,
  SdkSealingOptions,
} from './state/index.js';
export { createMemoryReplayStore, principalFrom, REQUEST_STATE_KEYS_ENV, sealRequestState } from './state/index.js';
export type {
  MemoryTaskStore,
  MemoryTaskStoreOptions,
  PendingQuestion,
  TaskAnswer,
  TaskDeclaration,
  TaskError,
  TaskOptions,
  TaskRecord,
  TaskStatus,
  TaskStatusChange,
  TaskStore,
  TaskSupport,
} from './tasks/index.js';
export { createMemoryTaskStore, TASKS_EXTENSION } from './tasks/index.js';
