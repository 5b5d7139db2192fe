/**
 * The two wire errors of the sealing layer and its log lines.
 *
 * Inbound failures all collapse into one frozen `-32602` error; the real reason only reaches the
 * server log as a fixed reason code. Sealing-side failures are a bare `-32603`.
 */
import { INTERNAL_ERROR, INVALID_PARAMS, ProtocolError } from '@modelcontextprotocol/server';
import type { LimitedLog } from '../logLimiter.js';
import type { MultiRoundMethod } from '../protocol.js';
import { isMultiRoundMethod } from '../protocol.js';
import { GENERATE_HINT, REQUEST_STATE_KEYS_ENV } from './keys.js';

/** Why an inbound `requestState` was rejected; logged, never sent to the client. */
export type RejectReason =
  | 'not_a_string'
  | 'malformed'
  | 'bad_version'
  | 'unknown_key'
  | 'tampered'
  | 'expired'
  | 'not_yet_valid'
  | 'binding_mismatch'
  | 'audience_mismatch'
  | 'principal_mismatch'
  | 'replayed'
  | 'codec_error'
  | 'arguments_not_canonical'
  | 'invalid_binding';

/** Why sealing (or the replay store) failed on the server side; logged, never sent to the client. */
export type ServerFailureReason =
  | 'codec_error'
  | 'arguments_not_canonical'
  | 'invalid_binding'
  | 'invalid_plaintext'
  | 'bad_clock'
  | 'replay_store_error';

/**
 * Where the sealer writes its one-line reports (each complete, without a trailing newline), with the
 * MCP method of the request a line is about (none: a line about no one request).
 */
export type SealingSink = (line: string, method?: MultiRoundMethod) => void;

/** Builds the frozen wire error every inbound `requestState` failure turns into. */
export function invalidRequestStateError(): ProtocolError {
  return new ProtocolError(INVALID_PARAMS, 'Invalid or expired requestState', {
    reason: 'invalid_request_state',
  });
}

/** Builds the detail-free `-32603` error a sealing-side failure turns into. */
export function sealingInternalError(): ProtocolError {
  return new ProtocolError(INTERNAL_ERROR, 'Internal error');
}

/** Only the three known method names ever reach the log; anything else is replaced. */
function methodForLog(method: unknown): string {
  return isMultiRoundMethod(method) ? method : 'an unknown method';
}

/** Writes one line and swallows a sink failure, so reporting never changes what the client sees. */
function safeReport(sink: SealingSink, line: string, method?: unknown): void {
  try {
    sink(line, isMultiRoundMethod(method) ? method : undefined);
  } catch {
    // A broken sink must not turn a rejection into a different error.
  }
}

const SHARE_KEYS = `set the same ${REQUEST_STATE_KEYS_ENV} (or requestState.keys) on every instance and keep it across restarts`;

/**
 * Logs `requestState rejected on <method>: <reason>` through the sealer's rate limit (a client can
 * send any number of bad tokens); an `unknown_key` says which variable to set.
 */
export function logRejected(log: LimitedLog, method: unknown, reason: RejectReason): void {
  const hint = reason === 'unknown_key' ? ` (sealed with a key this process does not have: ${SHARE_KEYS})` : '';
  log(
    'requestState rejected',
    `requestState rejected on ${methodForLog(method)}: ${reason}${hint}`,
    isMultiRoundMethod(method) ? method : undefined,
  );
}

/** Logs, at start, that `hosting` seals with a random per-process key and what to set instead. */
export function logLocalKeys(sink: SealingSink, hosting: string): void {
  safeReport(
    sink,
    `mcp-resolve: ${hosting} seals requestState with a random per-process key: a question's answers are lost ` +
      `after a restart or on a second instance. To keep them, ${SHARE_KEYS}: comma-separated keys of 32 bytes or ` +
      `more, hex or base64 (the first seals, all open). ${GENERATE_HINT}`,
  );
}

/** Logs `requestState sealing failed on <method>: <reason>` (or the replay-store variant). */
export function logServerFailure(sink: SealingSink, method: unknown, reason: ServerFailureReason): void {
  const what = reason === 'replay_store_error' ? 'replay check failed' : 'sealing failed';
  safeReport(sink, `requestState ${what} on ${methodForLog(method)}: ${reason}`, method);
}
