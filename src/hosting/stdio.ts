/**
 * Serving both protocol eras over stdio: the SDK's `serveStdio`, with inbound messages normalised
 * (see inbound.ts), a configurable limit on one inbound message, and out-of-band errors reported
 * on stderr as one line each by default (stdout carries the protocol, and the SDK's default is
 * silence). A message over the limit closes the connection with a clear line and exit code 1.
 */

import type { McpServerFactory, Transport } from '@modelcontextprotocol/server';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import type { ServeStdioOptions as SdkServeStdioOptions, StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { serveStdio as sdkServeStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

import { McpResolveError } from '../errors.js';
import { ForwardingTransport } from './forwardingTransport.js';
import { normalizeInbound } from './inbound.js';

export type { StdioServerHandle } from '@modelcontextprotocol/server/stdio';

/** Options of {@link serveStdio}: the SDK's, plus the inbound message limit. */
export interface ServeStdioOptions extends SdkServeStdioOptions {
  /**
   * The largest inbound message (one line of stdin) in bytes. A longer line closes the connection:
   * one line on stderr (through `onerror`) says so, and the process exit code becomes 1. Applies to
   * the default stdio transport; a `transport` you pass brings its own limit.
   * @default 10 MiB (the SDK's `STDIO_DEFAULT_MAX_BUFFER_SIZE`)
   */
  maxMessageSize?: number;
}

/** Serves `factory` on this process's stdio (or `options.transport`); the first message picks the era. */
export function serveStdio(factory: McpServerFactory, options: ServeStdioOptions = {}): StdioServerHandle {
  const { maxMessageSize, ...sdkOptions } = options;
  const report = options.onerror ?? reportOnStderr;
  const limit = maxMessageSize ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
  if (!Number.isSafeInteger(limit) || limit <= 0) {
    throw new McpResolveError(
      'invalid_options',
      `serveStdio(): maxMessageSize must be a positive integer number of bytes (got ${String(maxMessageSize)}). The default is ${STDIO_DEFAULT_MAX_BUFFER_SIZE}.`,
      { data: { api: 'serveStdio()', option: 'maxMessageSize' } },
    );
  }
  if (maxMessageSize !== undefined && options.transport !== undefined) {
    throw new McpResolveError(
      'invalid_options',
      'serveStdio(): maxMessageSize applies to the default stdio transport only. Pass the limit to your transport instead (for example new StdioServerTransport(stdin, stdout, { maxBufferSize })).',
      { data: { api: 'serveStdio()', option: 'maxMessageSize' } },
    );
  }
  const transport = new GuardedTransport(
    options.transport ?? new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: limit }),
    { limit, ownsProcess: options.transport === undefined },
  );
  return sdkServeStdio(factory, { ...sdkOptions, transport, onerror: report });
}

/** Writes one line per error: no stack, whitespace collapsed, long messages cut. */
function reportOnStderr(error: Error): void {
  process.stderr.write(`mcp-resolve: ${oneLine(error.message)}\n`);
}

const MAX_REPORTED_CHARS = 500;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_REPORTED_CHARS ? `${flat.slice(0, MAX_REPORTED_CHARS)}…` : flat;
}

interface GuardOptions {
  /** The inbound message limit, for the message that reports exceeding it. */
  readonly limit: number;
  /** Whether the connection is this process's stdio, so that a fatal close sets the exit code. */
  readonly ownsProcess: boolean;
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

  constructor(inner: Transport, guard: GuardOptions) {
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
        if (guard.ownsProcess) process.exitCode = 1;
      }
      this.onclose?.();
    };
  }
}

/** The SDK's stdio transport reports exceeding its buffer with exactly this message. */
function isOverLimit(error: Error, limit: number): boolean {
  return error.message === `ReadBuffer exceeded maximum size of ${limit} bytes`;
}

function closedBy(error: Error, limit: number): Error {
  const what = isOverLimit(error, limit)
    ? `an inbound message exceeded maxMessageSize (${limit} bytes)`
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
