/** W3C trace context from a request's `params._meta`: a malformed `traceparent` is ignored (a new trace starts). */
import type { Context, SpanContext } from '@opentelemetry/api';
import { createTraceState, isSpanContextValid, ROOT_CONTEXT, trace, TraceFlags } from './api.js';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The remote span context `traceparent` (and `tracestate`) describe, or `undefined` when they
 * describe none. Unless `honorFlags`, the client's trace flags are not read: the context is taken as
 * sampled, so a client sending flags `00` cannot switch off the tracing of its calls.
 */
export function spanContextFromMeta(
  meta: Readonly<Record<string, unknown>> | undefined,
  honorFlags = false,
): SpanContext | undefined {
  const header = meta?.['traceparent'];
  if (typeof header !== 'string') return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (match === null) return undefined;
  const [, version, traceId = '', spanId = '', flags = '00', rest] = match;
  // Version ff is invalid; version 00 has nothing after the flags.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  const state = meta?.['tracestate'];
  const context: SpanContext = {
    traceId,
    spanId,
    traceFlags: honorFlags ? parseInt(flags, 16) & TraceFlags.SAMPLED : TraceFlags.SAMPLED,
    isRemote: true,
    ...(typeof state === 'string' && state.length > 0 && { traceState: createTraceState(state) }),
  };
  return isSpanContextValid(context) ? context : undefined;
}

/** `context` as a parent: the root context carrying it. */
export function parentOf(context: SpanContext): Context {
  return trace.setSpanContext(ROOT_CONTEXT, context);
}

/** A span context as 25 bytes: trace id, span id, flags. */
export function packSpanContext(context: SpanContext): Uint8Array {
  const out = new Uint8Array(25);
  hexInto(context.traceId, out, 0);
  hexInto(context.spanId, out, 16);
  out[24] = context.traceFlags & 0xff;
  return out;
}

/** The span context 25 packed bytes describe (remote), or `undefined` when it is not a valid one. */
export function unpackSpanContext(bytes: Uint8Array): SpanContext | undefined {
  if (bytes.length !== 25) return undefined;
  const context: SpanContext = {
    traceId: hexOf(bytes.subarray(0, 16)),
    spanId: hexOf(bytes.subarray(16, 24)),
    traceFlags: bytes[24] ?? 0,
    isRemote: true,
  };
  return isSpanContextValid(context) ? context : undefined;
}

function hexInto(hex: string, out: Uint8Array, at: number): void {
  for (let i = 0; i < hex.length / 2; i++) out[at + i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
}

function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
