/**
 * Registering a resource whose reads are covered by sealing: any incoming `requestState` is
 * verified against the URI and template variables before the read runs, and state the read
 * returns with `input_required` is sealed.
 */
import type {
  InputRequiredResult,
  McpServer,
  ReadResourceResult,
  ResourceMetadata,
  ResourceTemplate,
  ServerContext,
  Variables,
} from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { throwMasked } from './masking.js';
import { assertRegistration } from './registration.js';
import type { RoundMethod } from './pipeline.js';
import { serveRound } from './pipeline.js';
import type { RoundServices } from './roundScope.js';

/** A resource read: the URI, the template's variables (empty for a fixed URI), and the context. */
export type ResourceRead = (
  uri: URL,
  variables: Variables,
  ctx: ToolContext,
) => ReadResourceResult | InputRequiredResult | Promise<ReadResourceResult | InputRequiredResult>;

/** A resource ready to register on every instance. */
export interface CompiledResource {
  readonly name: string;
  readonly uri: string | ResourceTemplate;
  readonly metadata: ResourceMetadata;
  readonly read: ResourceRead;
}

/** Validates a resource declaration. */
export function compileResource(
  name: string,
  uri: string | ResourceTemplate,
  metadata: ResourceMetadata,
  read: unknown,
): CompiledResource {
  assertRegistration('resource', name, read, 'read callback');
  return { name, uri, metadata, read: read as ResourceRead };
}

/** Registers `resource` on one SDK instance with its reads wrapped for sealing. */
export function registerResource(mcp: McpServer, resource: CompiledResource, services: RoundServices): void {
  const read = (uri: URL, variables: Variables, sdkCtx: ServerContext) =>
    serveRound(
      RESOURCE_READ,
      { resource, uri, variables },
      { target: uri.href, arguments: variables, params: { _meta: sdkCtx.mcpReq._meta } },
      sdkCtx,
      services,
    );
  if (typeof resource.uri === 'string') {
    mcp.registerResource(resource.name, resource.uri, resource.metadata, (uri, ctx) => read(uri, {}, ctx));
  } else {
    mcp.registerResource(resource.name, resource.uri, resource.metadata, read);
  }
}

/** One read: the resource, the URI asked for, and the template's variables. */
interface ResourceReadRequest {
  readonly resource: CompiledResource;
  readonly uri: URL;
  readonly variables: Variables;
}

/** How a `resources/read` runs through the round pipeline (no resolvers: the read callback is the step). */
const RESOURCE_READ: RoundMethod<ResourceReadRequest, ReadResourceResult> = {
  method: 'resources/read',
  validate: ({ variables }) => ({ ok: true, args: variables }),
  resolvedBy: () => undefined,
  run: ({ resource, uri, variables }, _args, _resolved, round) => resource.read(uri, variables, round.ctx),
  finish: (_read, value) => value as ReadResourceResult,
  fail: ({ uri }, error, services, trace) =>
    throwMasked(error, services.maskError, { method: 'resources/read', name: uri.href }, trace),
};
