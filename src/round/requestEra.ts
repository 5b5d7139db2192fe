/** Reading a request's era and the client's declared capabilities, on either era, and the context its handler receives. */
import type { ClientCapabilities, Server, ServerContext } from '@modelcontextprotocol/server';
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

import type { Era } from '../context.js';
import { answeringPerson } from '../channels/requestClient.js';
import { type RoundServices, type ToolContext, withRoundServices, withStateAccessor } from '../context.js';
import type { CallChannels } from '../channels/channel.js';
import type { RequestTrace } from '../telemetry/hooks.js';
import type { InstanceServices } from './services.js';

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

/** A builder's view of a readonly type. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A request's context as the round builds it, and its services (the code below the round takes them as an argument). */
export interface RoundContext {
  readonly ctx: ToolContext;
  readonly round: RoundServices;
}

/**
 * The context handlers receive, built once per request with its {@link RoundServices} (no per-call
 * closures but the attempt counter's: this is the hot path of every call). `target`: the tool or
 * prompt whose refused answers it counts (none: the caller sets its own counter, as a task run
 * does); `channels`: the call's channels beyond in-band, when the server has any.
 */
export function toolContextOf(
  sdkCtx: ServerContext,
  plaintext: string | undefined,
  services: InstanceServices,
  trace: RequestTrace | undefined,
  target?: string,
  channels?: CallChannels,
): RoundContext {
  const era = eraOf(sdkCtx);
  // Object.assign, not `{ ...sdkCtx, era }`: on Node 20 a spread followed by more properties takes
  // V8's slow path (≈ 1 µs per call, measured), more than the rest of this step.
  const fields: Mutable<ToolContext> = Object.assign({}, sdkCtx, {
    era,
    clientCapabilities: clientCapabilitiesOf(sdkCtx, services.server, era),
  });
  const round: Mutable<RoundServices> = { maxAnswerBytes: services.maxAnswerBytes, tickets: services.sealer.tickets };
  // A body handed only the context (a handler-shape wrapper, `pushElicit`) finds the services on it.
  const ctx = withRoundServices(fields, round);
  // The SDK's notifier on this connection's own Server: the page step of a URL question reports completion here.
  if (era === 'legacy') round.completeElicitation = services.completeElicitation;
  if (trace !== undefined) round.trace = trace;
  if (channels !== undefined) round.channels = channels;
  if (target !== undefined) {
    const person = () => answeringPerson(services.principal(ctx), ctx.http?.req);
    round.attempts = { attempts: services.attempts, target, person };
  }
  // The client's id where the connection renumbers requests (the modern lane's); with no state the
  // SDK's accessor already answers `undefined`: only plaintext replaces it.
  const id = services.clientIdOf(sdkCtx.mcpReq.id);
  const mcpReq = id === sdkCtx.mcpReq.id ? sdkCtx.mcpReq : Object.assign({}, sdkCtx.mcpReq, { id });
  if (plaintext !== undefined || mcpReq !== sdkCtx.mcpReq)
    ctx.mcpReq = plaintext === undefined ? mcpReq : withStateAccessor(mcpReq, plaintext);
  return { ctx, round };
}

/** The context of a request that runs no round of its own (a task resumed by `tasks/update`): no state, no trace. */
export function contextOf(sdkCtx: ServerContext, services: InstanceServices): RoundContext {
  return toolContextOf(sdkCtx, undefined, services, undefined);
}
