/**
 * Inbound normalisation at the hosting boundary. The request-state contract treats
 * `requestState: null` as absent; the SDK refuses it as invalid state before any handler runs.
 * Dropping the `null` where messages enter (the HTTP body, the stdio transport) keeps one
 * behaviour on every transport.
 */
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

const MULTI_ROUND_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Returns `message` (or each message of a batch) without a `null` `requestState` on multi-round requests. */
export function normalizeInbound<T>(message: T): T {
  if (Array.isArray(message)) return message.map((entry: unknown) => normalizeInbound(entry)) as T;
  if (
    !isRecord(message) ||
    typeof message.method !== 'string' ||
    !MULTI_ROUND_METHODS.has(message.method) ||
    !isRecord(message.params) ||
    message.params.requestState !== null
  ) {
    return message;
  }
  const { requestState: _absent, ...params } = message.params;
  return { ...message, params };
}

/** A server transport decorator that applies {@link normalizeInbound} to every message received. */
export class NormalizedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message, extra) => this.onmessage?.(normalizeInbound(message), extra);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
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
