/**
 * mcp-resolve: resolver dependency injection, era-agnostic questions and sealed state for MCP servers.
 * Runtime-neutral: Web-standard APIs only (Workers, Deno, Bun, Node). The root holds the server, resolvers,
 * question markers, errors and the `fetch` handler; Node hosting is `mcp-resolve/node`, and the
 * stores, fleet, tasks and telemetry contracts have their own entries (`mcp-resolve/state`,
 * `/fleet`, `/tasks`, `/telemetry`).
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
export { pickList } from './questions/pickList.js';
export type { PickOption } from './questions/pickList.js';
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
export { McpResolveServer } from './mcpResolveServer.js';
export type { InputValues, ResolvedValues, ResolveShape, ToolBody, ToolDeclaration, ToolInput } from './round/tool.js';
export type { PromptArgs, PromptBody, PromptDeclaration } from './round/prompt.js';
export type { ResourceRead } from './round/resource.js';
export type { DualEraHandler, DualEraHttpOptions, DualEraRequestOptions, ServerSource } from './hosting/index.js';
export { createDualEraHandler } from './hosting/index.js';
