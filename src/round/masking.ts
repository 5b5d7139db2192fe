/**
 * Masked errors (docs/guides/resolvers.md, "Masked errors"): what a client may read when a tool body, a resolver, a prompt or
 * a resource read throws. `ToolError` and the library's own errors carry messages written for the
 * client and pass verbatim; any other exception may carry internals (connection strings, hosts),
 * so the client gets a generic message with a correlation id and the server's error hook gets the
 * cause under the same id.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import { isClientLeft } from '../clientLeft.js';
import { createLogLimiter } from '../logLimiter.js';
import type { RequestTrace } from '../telemetry/hooks.js';
import { toHex } from '../state/bytes.js';
import type { SealingSink } from '../state/errors.js';

/** Where a masked failure happened, handed to the error hook with the cause. */
export interface FailureInfo {
  /** The correlation id the client's message carries, e.g. `3f9a0c2b7d1e`. */
  readonly ref: string;
  /**
   * The request that failed: an MCP method, `answer page` for a person's request to an answer page,
   * or `requestState` for a sealing report about no one request (the start-up warning about a
   * per-process key, the count of rate-limited rejections).
   */
  readonly method:
    | 'tools/call'
    | 'prompts/get'
    | 'resources/read'
    | 'tasks/get'
    | 'tasks/update'
    | 'tasks/cancel'
    | 'answer page'
    | 'requestState';
  /** The tool or prompt name, the resource URI, the task id, the answer page's path, or `requestState` for a sealing report. */
  readonly name: string;
}

/** Receives the cause of every failure whose message the client does not see (or, when exposed, does). */
export type ErrorHook = (error: unknown, info: FailureInfo) => void;

/** Turns a thrown value into the message the client sees, reporting the cause (and telling `masked` its ref) when it is masked. */
export type ErrorMasker = (error: unknown, where: Omit<FailureInfo, 'ref'>, masked?: (ref: string) => void) => string;

/** How a server masks errors: {@link McpResolveServerOptions.onerror} and `exposeErrorMessages`. */
export interface MaskingOptions {
  readonly onerror?: ErrorHook | undefined;
  readonly exposeErrorMessages?: boolean | undefined;
}

/**
 * Where sealing's lines go for a server (or `sealRequestState`) with an `onerror` hook: each line an
 * `Error`, `name` `requestState`, `method` the request's, or `requestState` for a line about no one request.
 */
export function sealingSink(onerror: ErrorHook): SealingSink {
  return (line, method) =>
    onerror(new Error(line), { ref: newRef(), method: method ?? 'requestState', name: 'requestState' });
}

/** The client-facing text of a masked failure; stable, documented in docs/guides/resolvers.md. */
export function maskedMessage(ref: string): string {
  return `Internal error (ref ${ref}): the server could not complete this request. Its operator can find the cause in the server log under this reference.`;
}

/** Lines for calls whose client left: client-caused, so rate-limited (counted, never silenced). */
const clientLeftLines = createLogLimiter((line) => console.error(line));

/**
 * The default hook: one line on stderr (`console.error`, present on every runtime), no stack. A call
 * that failed because its client left goes through a rate limit: a few lines per 10 s, then a count.
 */
export function logFailure(error: unknown, info: FailureInfo): void {
  const cause = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = `mcp-resolve: ${info.method} '${info.name}' failed [ref ${info.ref}]: ${cause.replace(/\s+/g, ' ')}`;
  if (isClientLeft(error)) clientLeftLines('calls ended because their client left', line);
  else console.error(line);
}

/**
 * Whether `error` is one whose message was written for the client: a `ToolError` or the library's
 * own, except `redis_unavailable`, which describes the server's infrastructure for its operator.
 */
export function isClientFacing(error: unknown): error is Error {
  return error instanceof McpResolveError && error.code !== 'redis_unavailable';
}

/** A client-facing error the operator must see too (one log line): a question that is not deterministic. */
function needsOperator(error: Error): boolean {
  return error instanceof McpResolveError && error.code === 'nondeterministic_question';
}

/** A fresh correlation id: 12 hex digits (48 random bits) from Web Crypto. */
export function newRef(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return toHex(bytes);
}

/** Builds the masker a server's calls share. */
export function createErrorMasker(options: MaskingOptions = {}): ErrorMasker {
  const hook = options.onerror ?? logFailure;
  const expose = options.exposeErrorMessages === true;
  return (error, where, masked) => {
    const clientFacing = isClientFacing(error);
    if (clientFacing && !needsOperator(error)) return error.message;
    const ref = newRef();
    masked?.(ref);
    try {
      hook(error, { ref, ...where });
    } catch {
      // A failing hook must not change what the client sees.
    }
    if (clientFacing) return error.message;
    if (!expose) return maskedMessage(ref);
    return error instanceof Error ? error.message : String(error);
  };
}

/**
 * For handlers whose failures are JSON-RPC errors (prompts, resource reads): rethrows a protocol
 * error unchanged, and anything else as a `-32603` carrying the masked (or client-facing) message.
 */
export function throwMasked(
  error: unknown,
  mask: ErrorMasker,
  where: Omit<FailureInfo, 'ref'>,
  trace?: RequestTrace,
): never {
  if (error instanceof ProtocolError) throw error;
  throw new ProtocolError(
    ProtocolErrorCode.InternalError,
    mask(error, where, trace && ((ref) => trace.masked(ref, error))),
  );
}
