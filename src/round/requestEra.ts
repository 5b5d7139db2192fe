/** Reading a request's era and the client's declared capabilities, on either era. */
import type { ClientCapabilities, Server, ServerContext } from '@modelcontextprotocol/server';
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

import type { Era } from '../context.js';

/** The per-request envelope as the SDK delivers it; its published type has no keys, so it is read through this one view. */
type EnvelopeView = Readonly<Record<string, unknown>> | undefined;

function envelopeOf(ctx: ServerContext): EnvelopeView {
  return ctx.mcpReq.envelope;
}

/** The era of the request `ctx` belongs to: modern requests carry the per-request protocol-version envelope. */
export function eraOf(ctx: ServerContext): Era {
  return typeof envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY] === 'string' ? 'modern' : 'legacy';
}

/**
 * The client's declared capabilities for this request: the request's envelope on the modern era,
 * the `initialize` declaration on a legacy connection (`undefined` when the instance never saw one).
 */
export function clientCapabilitiesOf(ctx: ServerContext, server: Server, era: Era): ClientCapabilities | undefined {
  if (era === 'modern') return envelopeOf(ctx)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return server.getClientCapabilities();
}

/** The protocol revision of the request: the envelope's on the modern era, the negotiated one on a legacy connection. */
export function protocolVersionOf(ctx: ServerContext, server: Server, era: Era): string | undefined {
  if (era === 'modern') return envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY] as string | undefined;
  return server.getNegotiatedProtocolVersion();
}
