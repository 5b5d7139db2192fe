/** Shared fixtures of the sealing tests: fixed keys, a settable clock, a capturing error hook. */
import { ProtocolError } from '@modelcontextprotocol/server';
import { expect } from 'vitest';

import type { RejectReason } from '../../src/state/errors.js';
import type { RequestBinding } from '../../src/state/binding.js';
import type { RequestStateSealer } from '../../src/state/sealer.js';
import type { InternalSealingOptions } from '../../src/state/options.js';
import { createSealer } from '../../src/state/sealer.js';

/** Three distinct 32-byte keys, hex. */
export const KEY_A = '0123456789abcdef'.repeat(4);
export const KEY_B = 'fedcba9876543210'.repeat(4);
export const KEY_C = '00112233445566778899aabbccddeeff'.repeat(2);

/** A fixed instant (2026-01-01T00:00:00Z) the test clocks start at. */
export const T0 = Date.UTC(2026, 0, 1);

/** The frozen wire error, field by field. */
export const FROZEN = {
  code: -32602,
  message: 'Invalid or expired requestState',
  data: { reason: 'invalid_request_state' },
};

/** A typical binding of a tools/call round. */
export const BINDING: RequestBinding = {
  method: 'tools/call',
  target: 'refund_order',
  arguments: { orderId: 'ORD-1234', amount: 42.5 },
  principal: undefined,
};

/** A clock the test moves by hand. */
export interface TestClock {
  now: () => number;
  set(ms: number): void;
  advance(ms: number): void;
}

/** Creates a {@link TestClock} starting at `start`. */
export function testClock(start = T0): TestClock {
  let current = start;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

/** A sink that keeps every line. */
export interface CapturedLog {
  readonly lines: string[];
  readonly sink: (line: string) => void;
}

/** Creates a {@link CapturedLog}. */
export function captureLog(): CapturedLog {
  const lines: string[] = [];
  return {
    lines,
    sink: (line: string) => void lines.push(line),
  };
}

/** A sealer plus its clock and log, with `KEY_A`, the test clock and the capturing sink unless overridden. */
export interface Fixture {
  readonly sealer: RequestStateSealer;
  readonly clock: TestClock;
  readonly log: CapturedLog;
}

/** Builds a {@link Fixture} for a server named `name`. */
export function fixture(options: InternalSealingOptions = {}, name = 'refund-desk', clock = testClock()): Fixture {
  const log = captureLog();
  const sealer = createSealer(name, {
    keys: [KEY_A],
    now: clock.now,
    sink: log.sink,
    rejectionLinesPerInterval: Infinity,
    ...options,
  });
  return { sealer, clock, log };
}

/** Awaits a promise that must reject with a `ProtocolError` and returns that error. */
export async function protocolRejection(promise: Promise<unknown>): Promise<ProtocolError> {
  let outcome: unknown;
  try {
    outcome = await promise;
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  throw new Error(`expected a ProtocolError, got a result: ${String(outcome)}`);
}

/** The three wire fields of an error. */
export function wireOf(error: ProtocolError): { code: number; message: string; data: unknown } {
  return { code: error.code, message: error.message, data: error.data };
}

/** What the log line of `reason` adds after it: an unknown key names the variable to share (issue 23). */
export function hintOf(reason: RejectReason): string {
  return reason === 'unknown_key'
    ? ' (sealed with a key this process does not have: set the same MCP_REQUEST_STATE_KEYS (or requestState.keys) on every instance and keep it across restarts)'
    : '';
}

/** Expects the frozen error and, when a log is given, exactly one new line naming `reason`. */
export async function expectRejected(
  promise: Promise<unknown>,
  log?: CapturedLog,
  reason?: RejectReason,
  method = 'tools/call',
): Promise<void> {
  const before = log?.lines.length ?? 0;
  const error = await protocolRejection(promise);
  expect(wireOf(error)).toEqual(FROZEN);
  if (log !== undefined) {
    expect(log.lines.length).toBe(before + 1);
    if (reason !== undefined)
      expect(log.lines.at(-1)).toBe(`requestState rejected on ${method}: ${reason}${hintOf(reason)}`);
  }
}

/** Decodes a token's base64url into bytes (test-side, lenient). */
export function tokenBytes(token: string): Buffer {
  return Buffer.from(token, 'base64url');
}

/** Re-encodes bytes as a token. */
export function asToken(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

/** Plaintext bytes from text. */
export function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
