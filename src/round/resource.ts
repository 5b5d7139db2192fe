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
import type { RoundState } from './roundState.js';
import { endTrace, failTrace, openRoundState, startTrace } from './roundState.js';
import type { InstanceServices } from './services.js';

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
export function registerResource(mcp: McpServer, resource: CompiledResource, services: InstanceServices): void {
  if (typeof resource.uri === 'string') {
    mcp.registerResource(resource.name, resource.uri, resource.metadata, (uri, sdkCtx) =>
      serveResourceRead(resource, uri, {}, sdkCtx, services),
    );
  } else {
    mcp.registerResource(resource.name, resource.uri, resource.metadata, (uri, variables, sdkCtx) =>
      serveResourceRead(resource, uri, variables, sdkCtx, services),
    );
  }
}

/**
 * Serves one `resources/read` round (no resolvers: the read callback is the step): open the
 * sealed state, read, seal its `input_required`; a failure is a masked JSON-RPC error.
 */
async function serveResourceRead(
  resource: CompiledResource,
  uri: URL,
  variables: Variables,
  sdkCtx: ServerContext,
  services: InstanceServices,
): Promise<ReadResourceResult | InputRequiredResult> {
  const trace = startTrace(services, sdkCtx, 'resources/read', uri.href, { _meta: sdkCtx.mcpReq._meta });
  try {
    const state = await openRoundState(
      sdkCtx,
      { method: 'resources/read', target: uri.href, arguments: variables },
      services,
      trace,
    );
    return endTrace(trace, await answerResourceRead(resource, uri, variables, state));
  } catch (error) {
    throw failTrace(trace, error);
  }
}

/** The round's step once its state is open: the read, its `input_required` sealed; a failure is rethrown masked. */
async function answerResourceRead(
  resource: CompiledResource,
  uri: URL,
  variables: Variables,
  state: RoundState,
): Promise<ReadResourceResult | InputRequiredResult> {
  try {
    const value = await resource.read(uri, variables, state.ctx);
    return isInputRequiredResult(value) ? await state.sealAsked(value) : value;
  } catch (error) {
    return throwMasked(error, state.services.maskError, { method: 'resources/read', name: uri.href }, state.trace);
  }
}
