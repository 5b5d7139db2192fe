/**
 * Inbound normalisation at the hosting boundary. The request-state contract treats
 * `requestState: null` as absent; the SDK refuses it as invalid state before any handler runs.
 * Dropping the `null` where messages enter (the HTTP body, the stdio transport) keeps one
 * behaviour on every transport.
 */
import type { Transport } from '@modelcontextprotocol/server';

import { ForwardingTransport } from './forwardingTransport.js';

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
export class NormalizedTransport extends ForwardingTransport {
  constructor(inner: Transport) {
    super(inner, { received: normalizeInbound });
  }
}
