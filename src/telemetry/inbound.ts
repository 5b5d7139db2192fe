/**
 * Every inbound message of one SDK server instance, for an observer's `served`: requests are seen
 * arriving and their responses leaving (the transport's `onmessage` is chained, its `send`
 * wrapped), so `initialize`, `tools/list`, `tasks/get` or a tool registered in `setup()` each get
 * a SERVER span, as the reference SDK gives every inbound message one. A request the library
 * observes itself (a library tool's `tools/call`, `prompts/get`, `resources/read`) is claimed by
 * its {@link RequestTrace} and left to it.
 */
import type { JSONRPCMessage, Server, Transport } from '@modelcontextprotocol/server';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

import type { Era } from '../era.js';
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

/**
 * A transport that gives each request an id of its own on the connection (the modern lane's
 * `ExchangeMux`): what is reported is the client's id, and what the transport itself sends the
 * instance (a cancellation for a client that left) is not an inbound message of the client's.
 */
interface RenumberingTransport {
  wireIdOf(id: RequestId): RequestId;
  isOwnMessage(message: JSONRPCMessage): boolean;
}

const isRenumbering = (transport: Transport): transport is Transport & RenumberingTransport =>
  'wireIdOf' in transport && 'isOwnMessage' in transport;

/** Observes one instance's inbound messages for `served`. */
export class InboundMessages {
  readonly #pending = new Map<RequestId, Pending>();
  #renumbering: RenumberingTransport | undefined;

  constructor(
    private readonly served: NonNullable<Telemetry['served']>,
    private readonly server: Server,
  ) {}

  /** Chains `transport.onmessage` and wraps `transport.send`; call before the instance connects to it. */
  attach(transport: Transport): void {
    if (isRenumbering(transport)) this.#renumbering = transport;
    const received = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (this.#renumbering?.isOwnMessage(message) === true) this.forget(message);
      else this.arrived(message);
      received?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      this.leaving(message);
      return send(message, options);
    };
  }

  /** The client's id of the request the instance knows as `id` (they differ on a renumbering transport). */
  wireIdOf(id: RequestId): RequestId {
    return this.#renumbering?.wireIdOf(id) ?? id;
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
        requestId: requestId === undefined ? undefined : this.wireIdOf(requestId),
        era,
        protocolVersion: typeof modern === 'string' ? modern : this.server.getNegotiatedProtocolVersion(),
        error,
      });
    } catch {
      // An observer never changes what the client gets.
    }
  }
}
