/**
 * A client transport decorator that reports every JSON-RPC request crossing it, in either
 * direction, and otherwise forwards everything to the transport it wraps.
 */

import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { isJSONRPCRequest } from '@modelcontextprotocol/client';

/** Receives the requests an {@link ObservedTransport} sees. */
export interface TransportObserver {
  /** A request the client sent to the server. */
  outgoingRequest(method: string): void;
  /** A request the server sent to the client. */
  incomingRequest(method: string): void;
}

/** Wraps a client transport and tells an observer about each request sent or received. */
export class ObservedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    protected readonly inner: Transport,
    private readonly observer: TransportObserver,
  ) {
    inner.onmessage = (message, extra) => {
      if (isJSONRPCRequest(message)) observer.incomingRequest(message.method);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCRequest(message)) this.observer.outgoingRequest(message.method);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }
}
