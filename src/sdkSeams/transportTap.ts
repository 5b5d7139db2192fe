/**
 * SDK seam: seeing every message of an SDK server instance's connection from outside the instance
 * (the telemetry's inbound observer), by tapping the transport before the instance connects to it.
 *
 * What is relied on, beyond the SDK's public API (a seam, pinned by its test): `Protocol.connect`
 * keeps a `transport.onmessage` set before it and calls it first, with each message the transport
 * delivers, before the instance handles the message; and the instance sends every message
 * (responses included) through the transport's `send` property as it is when it sends.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';

/** What a tap is told: each message the transport delivers, and each the instance sends through it. */
export interface TransportTap {
  received(message: JSONRPCMessage): void;
  sending(message: JSONRPCMessage): void;
}

/** Chains `transport.onmessage` and wraps `transport.send` so `tap` sees every message; call before the instance connects to `transport`. */
export function tapTransport(transport: Transport, tap: TransportTap): void {
  const received = transport.onmessage;
  transport.onmessage = (message, extra) => {
    tap.received(message);
    received?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    tap.sending(message);
    return send(message, options);
  };
}
