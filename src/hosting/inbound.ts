/**
 * Inbound normalisation at the hosting boundary. The request-state contract treats
 * `requestState: null` as absent; the SDK refuses it as invalid state before any handler runs.
 * Dropping the `null` where messages enter (the HTTP body, the stdio transport) keeps one
 * behaviour on every transport.
 */
import type { Transport } from '@modelcontextprotocol/server';

import { ForwardingTransport } from './forwardingTransport.js';
import { isMultiRoundMethod } from '../protocol.js';
import { isRecord } from '../ownKeys.js';

/**
 * Returns `message` (or each message of a batch) without a `null` `requestState` on multi-round
 * requests. It looks one level into a batch and no deeper: entries are messages, never batches
 * (see {@link isNestedBatch}), so no body can make it recurse.
 */
export function normalizeInbound<T>(message: T): T {
  if (Array.isArray(message)) return message.map((entry: unknown) => normalizeMessage(entry)) as T;
  return normalizeMessage(message);
}

function normalizeMessage<T>(message: T): T {
  if (
    !isRecord(message) ||
    typeof message.method !== 'string' ||
    !isMultiRoundMethod(message.method) ||
    !isRecord(message.params) ||
    message.params.requestState !== null
  ) {
    return message;
  }
  const { requestState: _absent, ...params } = message.params;
  return { ...message, params };
}

/**
 * Whether `body` is a batch with an array among its entries: not JSON-RPC at any depth (a batch
 * holds messages, and a message is an object), so the host answers it with `-32600` before any
 * code walks it.
 */
export function isNestedBatch(body: unknown): boolean {
  return Array.isArray(body) && body.some((entry: unknown) => Array.isArray(entry));
}

/** A server transport decorator that applies {@link normalizeInbound} to every message received. */
export class NormalizedTransport extends ForwardingTransport {
  constructor(inner: Transport) {
    super(inner, { received: normalizeInbound });
  }
}
