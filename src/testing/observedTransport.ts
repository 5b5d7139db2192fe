/**
 * A client transport decorator that reports every JSON-RPC request crossing it, in either
 * direction, lets a Tasks extension `CreateTaskResult` through to the SDK client (see
 * `adaptTaskResult`), and otherwise forwards everything to the transport it wraps.
 */

import type { Transport } from '@modelcontextprotocol/client';
import { isJSONRPCRequest } from '@modelcontextprotocol/server';

import { ForwardingTransport } from '../hosting/forwardingTransport.js';
import { adaptTaskResult } from './tasks.js';

/** Receives the requests an {@link ObservedTransport} sees. */
export interface TransportObserver {
  /** A request the client sent to the server. */
  outgoingRequest(method: string): void;
  /** A request the server sent to the client. */
  incomingRequest(method: string): void;
}

/** Wraps a client transport and tells an observer about each request sent or received. */
export class ObservedTransport extends ForwardingTransport {
  constructor(inner: Transport, observer: TransportObserver) {
    super(inner, {
      received: (message) => {
        if (isJSONRPCRequest(message)) observer.incomingRequest(message.method);
        return adaptTaskResult(message);
      },
      sending: (message) => {
        if (isJSONRPCRequest(message)) observer.outgoingRequest(message.method);
      },
    });
  }
}
