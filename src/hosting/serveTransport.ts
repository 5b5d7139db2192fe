/**
 * Serving both protocol eras on one transport, on every runtime: the SDK's `serveStdio` (which
 * serves any transport, the first message picking the era) with inbound messages normalised (see
 * inbound.ts) and the transport's errors turned into one clear line each. `mcp-resolve/node`
 * serves this process's stdio with it; `mcp-resolve/testing` serves in-memory transport pairs.
 */
import type { McpServerFactory, Transport } from '@modelcontextprotocol/server';
import type { ServeStdioOptions, StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';

import { ForwardingTransport } from './forwardingTransport.js';
import { normalizeInbound } from './inbound.js';

/** Serves `factory` on `transport` (both eras; the first message picks one), its errors reported through `guard`. */
export function serveTransport(
  factory: McpServerFactory,
  transport: Transport,
  guard: TransportGuard,
  options: Omit<ServeStdioOptions, 'transport' | 'onerror'> = {},
): StdioServerHandle {
  const onerror = guard.onerror ?? reportOnConsole;
  const guarded = new GuardedTransport(transport, { ...guard, onerror });
  return sdkServeStdio(factory, { ...options, transport: guarded, onerror });
}

/** The default report: one line per error, no stack. */
function reportOnConsole(error: Error): void {
  console.error(`mcp-resolve: ${oneLine(error.message)}`);
}

const MAX_REPORTED_CHARS = 500;

/** One line of an error message: whitespace collapsed, long messages cut. */
export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_REPORTED_CHARS ? `${flat.slice(0, MAX_REPORTED_CHARS)}…` : flat;
}

/** How {@link serveTransport} reports what goes wrong on its connection. */
export interface TransportGuard {
  /** The inbound message limit of the transport, for the message that reports exceeding it (none for an in-memory pair). */
  readonly limit?: number | undefined;
  /** Receives every error as one line (default: `console.error`, present on every runtime). */
  readonly onerror?: ((error: Error) => void) | undefined;
  /** Called once when the transport closes because of an error (the process may set its exit code). */
  readonly onFatalClose?: (() => void) | undefined;
}

/**
 * Normalises inbound messages and turns the transport's errors into one clear report each: a line
 * that is not a JSON-RPC message is named as such, and an error the transport closes on (the SDK's
 * stdio transport closes right after reporting an over-long line or a failed stdout) becomes one
 * fatal report and, on this process's stdio, exit code 1.
 */
class GuardedTransport extends ForwardingTransport {
  /** An error reported in this tick: fatal if the transport closes before the tick ends. */
  private pending: Error | undefined;

  constructor(inner: Transport, guard: TransportGuard) {
    super(inner, { received: normalizeInbound });
    inner.onerror = (error) => {
      const rejected = notJsonRpc(error);
      if (rejected !== undefined) {
        this.onerror?.(rejected);
        return;
      }
      this.pending = error;
      queueMicrotask(() => {
        if (this.pending === error) {
          this.pending = undefined;
          this.onerror?.(error);
        }
      });
    };
    inner.onclose = () => {
      const fatal = this.pending;
      this.pending = undefined;
      if (fatal !== undefined) {
        this.onerror?.(closedBy(fatal, guard.limit));
        guard.onFatalClose?.();
      }
      this.onclose?.();
    };
  }
}

/** The SDK's stdio transport reports exceeding its buffer with exactly this message. */
function isOverLimit(error: Error, limit: number | undefined): boolean {
  return limit !== undefined && error.message === `ReadBuffer exceeded maximum size of ${limit} bytes`;
}

function closedBy(error: Error, limit: number | undefined): Error {
  const what = isOverLimit(error, limit)
    ? `an inbound message exceeded maxMessageBytes (${limit} bytes)`
    : `the transport failed (${oneLine(error.message)})`;
  return new Error(`stdio: ${what}; the connection is closed.`, { cause: error });
}

/**
 * The SDK's stdio transport reports a line that is JSON but not a JSON-RPC message with the
 * schema's validation error (a zod error: `issues`, pretty-printed over dozens of lines). Returns
 * a one-line error naming the first reason, or `undefined` for any other error.
 */
function notJsonRpc(error: Error): Error | undefined {
  if (error.name !== 'ZodError' || !('issues' in error) || !Array.isArray(error.issues)) return undefined;
  return new Error(`stdio: ignored an inbound line that is not a JSON-RPC message (${firstIssue(error.issues)})`, {
    cause: error,
  });
}

interface Issue {
  readonly message?: unknown;
  readonly path?: unknown;
  readonly errors?: unknown;
}

/** The first leaf issue of a (possibly union) validation failure, as `message at path`. */
function firstIssue(issues: readonly unknown[]): string {
  let issue = issues[0] as Issue | undefined;
  const path: unknown[] = [];
  while (issue !== undefined) {
    if (Array.isArray(issue.path)) path.push(...(issue.path as unknown[]));
    const branches = issue.errors;
    const next: unknown = Array.isArray(branches) && Array.isArray(branches[0]) ? branches[0][0] : undefined;
    if (typeof next !== 'object' || next === null) break;
    issue = next;
  }
  const message = typeof issue?.message === 'string' ? issue.message : 'invalid message';
  return path.length > 0 ? `${message} at ${path.map(String).join('.')}` : message;
}
