import { ProtocolError } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { RequestBinding } from '../../src/state/binding.js';
import { createSealer } from '../../src/state/sealer.js';
import { invalidRequestStateError } from '../../src/state/errors.js';
import {
  BINDING,
  FROZEN,
  KEY_A,
  KEY_B,
  T0,
  asToken,
  bytes,
  captureLog,
  fixture,
  protocolRejection,
  testClock,
  tokenBytes,
  wireOf,
} from './helpers.js';

const PRINCIPAL = '["app","https://issuer.example","SECRET-PRINCIPAL-7f3a"]';
const PLAINTEXT = 'PLAINTEXT-MARKER-93be';
/** What an `unknown_key` line adds: the variable to set (issue 23). */
const UNKNOWN_KEY_HINT =
  '(sealed with a key this process does not have: set the same MCP_REQUEST_STATE_KEYS (or requestState.keys) on every instance and keep it across restarts)';
const LOG_LINE =
  /^requestState (rejected|sealing failed|replay check failed) on (tools\/call|prompts\/get|resources\/read|an unknown method): [a-z_]+$/;

afterEach(() => {
  vi.restoreAllMocks();
});

/** Provokes one failure of every kind against one sealer and returns the wire errors with the log. */
async function everyFailure() {
  const clock = testClock();
  const log = captureLog();
  const bound: RequestBinding = { ...BINDING, principal: PRINCIPAL };
  const sealer = createSealer('refund-desk', {
    keys: [KEY_A],
    now: clock.now,
    sink: log.sink,
    rejectionLinesPerInterval: Infinity,
  });
  const otherKey = createSealer('refund-desk', { keys: [KEY_B], now: clock.now, replayStore: false });
  const otherAudience = createSealer('billing', { keys: [KEY_A], now: clock.now, replayStore: false });
  const future = createSealer('refund-desk', { keys: [KEY_A], now: () => T0 + 3_600_000, replayStore: false });
  const codec = createSealer('refund-desk', {
    codec: {
      seal: (b) => Buffer.from(b).toString('base64url'),
      unseal: () => Promise.reject(new Error(`kms: ${PRINCIPAL}`)),
    },
    sink: log.sink,
    rejectionLinesPerInterval: Infinity,
  });

  const mint = () => sealer.seal(bytes(PLAINTEXT), bound);
  const tampered = tokenBytes(await mint());
  tampered[50] = (tampered[50] ?? 0) ^ 0x80;
  const otherVersion = tokenBytes(await mint());
  otherVersion[0] = 9;
  const replayed = await mint();
  await sealer.open(replayed, bound);
  const expiring = await mint();

  const attempts: Array<[string, () => Promise<unknown>]> = [
    ['not_a_string', () => sealer.open(42, bound)],
    ['malformed', () => sealer.open('%%%', bound)],
    ['bad_version', () => sealer.open(asToken(otherVersion), bound)],
    ['unknown_key', async () => sealer.open(await otherKey.seal(bytes(PLAINTEXT), bound), bound)],
    ['tampered', () => sealer.open(asToken(tampered), bound)],
    ['binding_mismatch', async () => sealer.open(await mint(), { ...bound, target: 'other' })],
    ['audience_mismatch', async () => sealer.open(await otherAudience.seal(bytes(PLAINTEXT), bound), bound)],
    ['principal_mismatch', async () => sealer.open(await mint(), { ...bound, principal: 'someone else' })],
    ['not_yet_valid', async () => sealer.open(await future.seal(bytes(PLAINTEXT), bound), bound)],
    ['replayed', () => sealer.open(replayed, bound)],
    ['codec_error', async () => codec.open(await codec.seal(bytes(PLAINTEXT), bound), bound)],
    [
      'expired',
      async () => {
        clock.advance(631_000);
        return sealer.open(expiring, bound);
      },
    ],
  ];
  const errors: ProtocolError[] = [];
  const tokens = [replayed, expiring, asToken(tampered)];
  for (const [reason, attempt] of attempts) {
    const before = log.lines.length;
    errors.push(await protocolRejection(attempt()));
    const hint = reason === 'unknown_key' ? ` ${UNKNOWN_KEY_HINT}` : '';
    expect(log.lines.slice(before)).toEqual([`requestState rejected on tools/call: ${reason}${hint}`]);
  }
  return { errors, lines: log.lines, tokens };
}

describe('one frozen wire error for every cause', () => {
  it('is deep-equal across all causes, and the real reason is only in the log', async () => {
    const { errors } = await everyFailure();
    expect(errors).toHaveLength(12);
    for (const error of errors) {
      expect(Object.getPrototypeOf(error)).toBe(ProtocolError.prototype);
      expect(wireOf(error)).toEqual(FROZEN);
      expect(Object.keys(error.data ?? {})).toEqual(['reason']);
      expect(JSON.stringify(wireOf(error))).toBe(JSON.stringify(wireOf(errors[0] ?? error)));
    }
  });

  it('is what invalidRequestStateError() builds, fresh each time', () => {
    const first = invalidRequestStateError();
    const second = invalidRequestStateError();
    expect(first).toBeInstanceOf(ProtocolError);
    expect(wireOf(first)).toEqual(FROZEN);
    expect(first).not.toBe(second);
    expect(first.data).not.toBe(second.data);
  });
});

describe('logging', () => {
  it('never logs the token, the plaintext, the key or the principal: one fixed-shape line per failure', async () => {
    const { lines, tokens } = await everyFailure();
    const all = lines.join('\n');
    for (const line of lines) expect(line.replace(` ${UNKNOWN_KEY_HINT}`, '')).toMatch(LOG_LINE);
    for (const secret of [
      PLAINTEXT,
      PRINCIPAL,
      'SECRET',
      KEY_A,
      KEY_B,
      Buffer.from(KEY_A, 'hex').toString('base64'),
      ...tokens,
    ]) {
      expect(all).not.toContain(secret);
    }
  });

  it('logs nothing on success', async () => {
    const { sealer, log } = fixture();
    await sealer.open(await sealer.seal(bytes('s'), BINDING), BINDING);
    expect(log.lines).toEqual([]);
  });

  it('never echoes an unexpected method name into the log', async () => {
    const { sealer, log } = fixture();
    const forged = { ...BINDING, method: 'tools/call\nrequestState accepted' };
    // @ts-expect-error - a JavaScript caller can pass anything
    await protocolRejection(sealer.open('x', forged));
    expect(log.lines).toEqual(['requestState rejected on an unknown method: invalid_binding']);
  });

  it('writes to console.warn (stderr) by default, never to stdout', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const stdout = vi.spyOn(process.stdout, 'write');
    const sealer = createSealer('refund-desk', { keys: [KEY_A] });
    await protocolRejection(sealer.open('garbage!', BINDING));
    expect(warn).toHaveBeenCalledExactlyOnceWith('requestState rejected on tools/call: malformed');
    expect(stdout).not.toHaveBeenCalled();
  });

  it('keeps the frozen error when the sink itself throws', async () => {
    const sealer = createSealer('refund-desk', {
      keys: [KEY_A],
      sink: () => {
        throw new Error('log sink full');
      },
    });
    expect(wireOf(await protocolRejection(sealer.open('garbage!', BINDING)))).toEqual(FROZEN);
  });
});
