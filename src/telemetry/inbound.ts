/**
 * Every inbound message of one SDK server instance, for an observer's `served`: requests are seen
 * arriving and their responses leaving (the transport is tapped, `sdkSeams/transportTap.ts`),
 * so `initialize`, `tools/list`, `tasks/get` or a tool registered in `setup()` each get a SERVER
 * span, as the reference SDK gives every inbound message one. A request the library observes itself (a library tool's `tools/call`, `prompts/get`, `resources/read`) is claimed by
 * its {@link RequestTrace} and left to it.
 */
import type { JSONRPCMessage, Server, Transport } from '@modelcontextprotocol/server';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

import type { Era } from '../protocol.js';
import type { RenumberingTransport } from '../renumberingTransport.js';
import { tapTransport } from '../sdkSeams/transportTap.js';
import type { ServedMessage, Telemetry } from './hooks.js';

type RequestId = string | number;

/** A request that arrived and has not been answered yet. */
interface Pending {
  readonly method: string;
  readonly name: string | undefined;
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  readonly startedAt: number;
}

/** A JSON object's field, when the value is an object. */
function fieldOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** `params._meta` of a message, when it is an object. */
function metaOf(params: unknown): Readonly<Record<string, unknown>> | undefined {
  const meta = fieldOf(params, '_meta');
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
}

/** Observes one instance's inbound messages for `served`. */
export class InboundMessages {
  readonly #pending = new Map<RequestId, Pending>();
  /** The connection's request ids, when they are not its clients' (the modern lane's). */
  #ids: RenumberingTransport | undefined;

  constructor(
    private readonly served: NonNullable<Telemetry['served']>,
    private readonly server: Server,
  ) {}

  /**
   * Observes the messages of `transport` (tapped: call before the instance connects to it), whose
   * request ids are its clients' unless `ids` says otherwise (then the clients' ids are reported,
   * and what the transport sends the instance itself is no client's message).
   */
  attach(transport: Transport, ids: RenumberingTransport | undefined): void {
    this.#ids = ids;
    tapTransport(transport, {
      received: (message) => (ids?.isOwnMessage(message) === true ? this.forget(message) : this.arrived(message)),
      sending: (message) => this.leaving(message),
    });
  }

  /** Takes request `id` off this observer (its {@link RequestTrace} reports it); returns when it arrived. */
  claim(id: RequestId): number | undefined {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    return pending?.startedAt;
  }

  /** A cancellation the transport sent for a client that left: its request will not be answered, nor reported. */
  private forget(message: JSONRPCMessage): void {
    const cancelled = 'method' in message ? fieldOf(message.params, 'requestId') : undefined;
    if (typeof cancelled === 'string' || typeof cancelled === 'number') this.#pending.delete(cancelled);
  }

  private arrived(message: JSONRPCMessage): void {
    if (!('method' in message)) return;
    const { params } = message;
    const name = fieldOf(params, 'name');
    const seen: Pending = {
      method: message.method,
      name: typeof name === 'string' ? name : undefined,
      meta: metaOf(params),
      startedAt: Date.now(),
    };
    if ('id' in message) {
      this.#pending.set(message.id, seen);
      return;
    }
    if (message.method === 'notifications/cancelled') {
      const cancelled = fieldOf(params, 'requestId');
      if (typeof cancelled === 'string' || typeof cancelled === 'number') this.#pending.delete(cancelled);
    }
    this.report(seen, undefined, undefined);
  }

  private leaving(message: JSONRPCMessage): void {
    if ('method' in message || !('id' in message) || message.id === undefined) return;
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    if ('error' in message) this.report(pending, message.id, message.error.code);
    else {
      const toolError = pending.method === 'tools/call' && fieldOf(message.result, 'isError') === true;
      this.report(pending, message.id, toolError ? 'tool_error' : undefined);
    }
  }

  private report(seen: Pending, requestId: RequestId | undefined, error: ServedMessage['error']): void {
    const modern = fieldOf(seen.meta, PROTOCOL_VERSION_META_KEY);
    const era: Era = typeof modern === 'string' ? 'modern' : 'legacy';
    try {
      this.served({
        ...seen,
        requestId: requestId === undefined ? undefined : (this.#ids?.clientIdOf(requestId) ?? requestId),
        era,
        protocolVersion: typeof modern === 'string' ? modern : this.server.getNegotiatedProtocolVersion(),
        error,
      });
    } catch {
      // An observer never changes what the client gets.
    }
  }
}
