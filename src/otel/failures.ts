/** Telemetry that never fails a call, and how a failure is told on a span (its kind, never its message). */
import type { Span } from '@opentelemetry/api';
import { SpanStatusCode } from './api.js';

/** The JSON-RPC code a thrown protocol error carries, if any. */
export function codeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'number' ? error.code : undefined;
}

/**
 * `error.type` of a thrown value as the Python SDK sets it (`mcp/server/_otel.py`): the JSON-RPC
 * code as a string (`-32602`), else the error's class name.
 */
export function errorType(error: unknown): string {
  const code = codeOf(error);
  if (code !== undefined) return String(code);
  return error instanceof Error ? error.name : '_OTHER';
}

/** Runs `fn`, swallowing whatever an SDK or exporter throws: telemetry never fails a call. */
export function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // An exporter or processor that throws must not change what the client gets.
  }
}

/** A failed child span: ERROR status and `error.type`, never the message (it may carry what the client must not see). */
export function failSpan(span: Span, error: unknown): void {
  span.setAttribute('error.type', errorType(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
}
