/**
 * A transport decorator that forwards everything to the transport it wraps, passing each message
 * through two hooks: one for what arrives, one for what leaves. The library's decorators (inbound
 * normalisation, the testing entry's counters) are this class with hooks.
 */
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

/** What a {@link ForwardingTransport} does with messages on their way through. */
export interface ForwardingHooks {
  /** Sees (and may replace) each message received from the peer. */
  readonly received?: (message: JSONRPCMessage) => JSONRPCMessage;
  /** Sees each message before it is sent to the peer. */
  readonly sending?: (message: JSONRPCMessage) => void;
}

/** Wraps a transport, forwarding every member and applying {@link ForwardingHooks}. */
export class ForwardingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    protected readonly inner: Transport,
    private readonly hooks: ForwardingHooks = {},
  ) {
    inner.onmessage = (message, extra) => this.onmessage?.(hooks.received?.(message) ?? message, extra);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean {
    return this.inner.hasPerRequestStream === true;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.hooks.sending?.(message);
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
