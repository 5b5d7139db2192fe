/**
 * mcp-resolve: resolver dependency injection, era-agnostic questions and sealed state for MCP servers.
 * Runtime-neutral: Web-standard APIs only (Workers, Deno, Bun, Node). The root holds what a server
 * author writes: the server, resolvers, question markers, errors and the `fetch` handler. Node
 * hosting is `mcp-resolve/node`; what a custom store, fleet or observer implements is
 * `mcp-resolve/contracts`.
 *
 * @packageDocumentation
 */
export type { Era, ToolContext } from './context.js';
export type {
  McpResolveErrorCode,
  McpResolveErrorConstructor,
  McpResolveErrorData,
  McpResolveErrorOptions,
} from './errors.js';
export { McpResolveError, ToolError } from './errors.js';
export type {
  Ask,
  Elicit,
  ElicitationResult,
  ElicitOptions,
  ElicitUrl,
  CompleteElicitation,
  FlatForm,
  UrlElicitation,
  ListRoots,
  Sample,
  SampleResult,
} from './questions/markers.js';
export { elicit, elicitUrl, listRoots, sample, sampledText } from './questions/markers.js';
export { pickList } from './questions/pickList.js';
export type { PickOption } from './questions/pickList.js';
export type { AnyResolver, DeclarationError, Resolver, ValueOf } from './resolvers/resolver.js';
export { outcome, resolver } from './resolvers/resolver.js';
export type { ErrorHook, FailureInfo } from './round/masking.js';
export type { McpResolveServerOptions } from './server/options.js';
export type { InstanceReuse } from './server/instanceReuse.js';
export type { ChannelOptions } from './serverChannels.js';
export type { AnswerPageOptions } from './answerPage/options.js';
export type { AppsOptions } from './apps/options.js';
export type { BrowserUser } from './answerPage/browserUser.js';
export type { AnswerPageSignInOptions } from './answerPage/signIn.js';
export type { HttpRoute } from './channels/channel.js';
export { McpResolveServer } from './server/server.js';
export type { InputValues, ToolBody, ToolDeclaration, ToolInput } from './round/tool.js';
export type { PromptArgs, PromptBody, PromptDeclaration } from './round/prompt.js';
export type { ResourceRead } from './round/resource.js';
export type {
  DualEraHandler,
  DualEraHttpOptions,
  DualEraRequestOptions,
  OAuthIntrospectionOptions,
  OAuthOptions,
  ServerSource,
} from './hosting/index.js';
export { createDualEraHandler } from './hosting/index.js';
