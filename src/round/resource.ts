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
import { isInputRequiredResult } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { throwMasked } from './masking.js';
import { assertRegistration } from './registration.js';
import type { RoundServices } from './roundScope.js';
import { openRound } from './roundScope.js';
import type { RequestTrace } from '../telemetry/hooks.js';
import { endTrace, startTrace } from './requestTrace.js';

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
  const read = (uri: URL, variables: Variables, sdkCtx: ServerContext) => {
    const trace = startTrace(services, sdkCtx, 'resources/read', uri.href, { _meta: sdkCtx.mcpReq._meta });
    if (trace === undefined) return readResource(resource, uri, variables, sdkCtx, services);
    return endTrace(trace, () => readResource(resource, uri, variables, sdkCtx, services, trace));
  };
  if (typeof resource.uri === 'string') {
    mcp.registerResource(resource.name, resource.uri, resource.metadata, (uri, ctx) => read(uri, {}, ctx));
  } else {
    mcp.registerResource(resource.name, resource.uri, resource.metadata, read);
  }
}

/** Serves one `resources/read` round of `resource` at `uri`. */
async function readResource(
  resource: CompiledResource,
  uri: URL,
  variables: Variables,
  sdkCtx: ServerContext,
  services: RoundServices,
  trace?: RequestTrace,
): Promise<ReadResourceResult | InputRequiredResult> {
  const round = await openRound(
    sdkCtx,
    { method: 'resources/read', target: uri.href, arguments: variables },
    services,
    trace,
  );
  let value: ReadResourceResult | InputRequiredResult;
  try {
    value = await resource.read(uri, variables, round.ctx);
  } catch (error) {
    throwMasked(error, services.maskError, { method: 'resources/read', name: uri.href }, trace);
  }
  return isInputRequiredResult(value) ? round.sealAsked(value) : value;
}
