import { describe, expect, it } from 'vitest';

import { digestBinding } from '../../src/state/binding.js';
import type { RejectReason } from '../../src/state/errors.js';
import type { RequestBinding } from '../../src/state/binding.js';
import { webPrimitives } from '../../src/state/primitives.js';
import { BINDING, KEY_A, KEY_B, asToken, bytes, captureLog, expectRejected, fixture, tokenBytes } from './helpers.js';

// Offsets of the built-in token (see docs/guides/request-state.md, "Token format").
const VERSION = 0;
const KEY_ID = [1, 5] as const;
const HINTS = [23, 26] as const;
const OVERHEAD = 48;

/** A genuine token of the previous layout (version 0x03, 2-byte hints), sealed with KEY_A for BINDING at T0. */
const PREVIOUS_LAYOUT = 'A67E28YBm3baqADjsSwk64MJVmzLFCdUVL84RB55w-21IeR11j6uzQk4hc0zJEa8WrZECzJP_m0';

/** The first byte of a binding's request digest: what its 1-byte hint carries (under a per-token mask). */
function requestHintSource(binding: RequestBinding): number | undefined {
  const digested = digestBinding(binding, webPrimitives);
  return digested.ok ? digested.digest.request[0] : undefined;
}

/**
 * The reason the log must name when byte `index` is altered. Altered hint bytes are `tampered`: a
 * specific mismatch is only ever read from a header that authenticates, never from altered bytes.
 */
function reasonForByte(index: number): RejectReason {
  if (index === VERSION) return 'bad_version';
  if (index >= KEY_ID[0] && index < KEY_ID[1]) return 'unknown_key';
  return 'tampered'; // issued-at, nonce, hints, header proof, ciphertext, tag
}

describe('tampering', () => {
  it('rejects a flip of every bit in every byte position, naming the part that was hit', async () => {
    const { sealer, log } = fixture({ replayStore: false });
    const token = await sealer.seal(bytes('{"step":2,"answers":["refund"]}'), BINDING);
    const original = tokenBytes(token);
    expect(original.length).toBe(OVERHEAD + 31);
    for (let index = 0; index < original.length; index++) {
      for (let bit = 0; bit < 8; bit++) {
        const mutated = Buffer.from(original);
        mutated[index] = (mutated[index] ?? 0) ^ (1 << bit);
        await expectRejected(sealer.open(asToken(mutated), BINDING), log, reasonForByte(index));
      }
    }
    expect(await sealer.open(token, BINDING)).toEqual(bytes('{"step":2,"answers":["refund"]}'));
  });

  it('never logs a specific mismatch read from altered hint bytes, with or without a principal', async () => {
    // Issue 10 item 5: tampered hint bytes were logged as principal_mismatch / audience_mismatch.
    for (const principal of [undefined, 'alice']) {
      const { sealer, log } = fixture({ replayStore: false });
      const bound = { ...BINDING, principal };
      const original = tokenBytes(await sealer.seal(bytes('{"step":1}'), bound));
      for (let index = HINTS[0]; index < HINTS[1]; index++) {
        for (let value = 0; value < 256; value++) {
          if (value === original[index]) continue;
          const mutated = Buffer.from(original);
          mutated[index] = value;
          await expectRejected(sealer.open(asToken(mutated), bound), log, 'tampered');
        }
      }
    }
  });

  it('names a proven mismatch even when the ciphertext was altered too', async () => {
    const { sealer, log } = fixture({ replayStore: false });
    const original = tokenBytes(await sealer.seal(bytes('{"step":1}'), BINDING));
    const mutated = Buffer.from(original);
    mutated[OVERHEAD - 16] = (mutated[OVERHEAD - 16] ?? 0) ^ 1; // a ciphertext byte; the header stays authentic
    await expectRejected(sealer.open(asToken(mutated), { ...BINDING, principal: 'bob' }), log, 'principal_mismatch');
    await expectRejected(sealer.open(asToken(mutated), BINDING), log, 'tampered');
  });

  it('names binding_mismatch only from a differing 1-byte hint; an equal hint (1 in 256) stays the generic tampered', async () => {
    const { sealer, log } = fixture({ replayStore: false });
    const token = await sealer.seal(bytes('{"step":1}'), BINDING);
    const sealedHint = requestHintSource(BINDING);
    const seen = new Set<RejectReason>();
    for (let index = 0; index < 4096 && seen.size < 2; index++) {
      const other = { ...BINDING, arguments: { orderId: `ORD-${index}`, amount: 42.5 } };
      const reason = requestHintSource(other) === sealedHint ? 'tampered' : 'binding_mismatch';
      await expectRejected(sealer.open(token, other), log, reason);
      seen.add(reason);
    }
    expect([...seen].sort()).toEqual(['binding_mismatch', 'tampered']); // both cases were exercised
  });

  it('rejects a token of the previous layout (0x03, 2-byte hints) as bad_version, even under its own key', async () => {
    const { sealer, log } = fixture({ replayStore: false });
    expect(tokenBytes(PREVIOUS_LAYOUT)[0]).toBe(0x03);
    await expectRejected(sealer.open(PREVIOUS_LAYOUT, BINDING), log, 'bad_version');
  });

  it('rejects every truncation, from the empty string up to one character short', async () => {
    const { sealer, log } = fixture({ replayStore: false });
    const token = await sealer.seal(bytes('state'), BINDING);
    for (let length = 0; length < token.length; length++) {
      await expectRejected(sealer.open(token.slice(0, length), BINDING), log);
    }
    expect(log.lines).toContain('requestState rejected on tools/call: malformed');
    expect(log.lines).toContain('requestState rejected on tools/call: tampered');
  });

  it('rejects a token shorter than header and tag as malformed', async () => {
    const { sealer, log } = fixture();
    const token = await sealer.seal(new Uint8Array(0), BINDING);
    await expectRejected(sealer.open(asToken(tokenBytes(token).subarray(0, OVERHEAD - 1)), BINDING), log, 'malformed');
  });

  it('rejects padding and appended characters', async () => {
    const { sealer, log } = fixture({ replayStore: false });
    const token = await sealer.seal(bytes('state'), BINDING);
    for (const suffix of ['=', '==', 'A', 'AA', 'AAA', 'AAAA', ' ', '\n', '.', '%3D']) {
      await expectRejected(sealer.open(token + suffix, BINDING), log);
    }
    for (const prefix of ['A', 'AAAA', ' ', 'v1.', 'Bearer ']) {
      await expectRejected(sealer.open(prefix + token, BINDING), log);
    }
  });

  it('rejects a re-prefixed token: any other version byte is bad_version', async () => {
    const { sealer, log } = fixture({ replayStore: false });
    const original = tokenBytes(await sealer.seal(bytes('state'), BINDING));
    for (const version of [0x00, 0x01, 0x02, 0x03, 0x05, 0x7f, 0x81, 0xff]) {
      const mutated = Buffer.from(original);
      mutated[0] = version;
      await expectRejected(sealer.open(asToken(mutated), BINDING), log, 'bad_version');
    }
    await expectRejected(sealer.open(asToken(Buffer.concat([Buffer.of(4), original])), BINDING), log);
  });

  it('rejects non-canonical base64url: set trailing bits, standard alphabet, padding', async () => {
    const { sealer, log } = fixture({ replayStore: false });
    // 48 + 2 bytes → 50 bytes, 67 characters: the last character carries 2 unused bits.
    let token = await sealer.seal(bytes('ab'), BINDING);
    while (!/[-_]/.test(token)) token = await sealer.seal(bytes('ab'), BINDING);
    expect(token.length % 4).toBe(3);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token.charAt(token.length - 1));
    const sloppy = token.slice(0, -1) + alphabet.charAt(last | 1);
    expect(Buffer.from(sloppy, 'base64url').equals(tokenBytes(token))).toBe(true); // Node alone would accept it
    await expectRejected(sealer.open(sloppy, BINDING), log, 'malformed');
    await expectRejected(sealer.open(token.replaceAll('-', '+').replaceAll('_', '/'), BINDING), log, 'malformed');
    await expectRejected(sealer.open(`${token}=`, BINDING), log, 'malformed');
    expect(await sealer.open(token, BINDING)).toEqual(bytes('ab'));
  });

  it('rejects a token transplanted from another key ring as unknown_key', async () => {
    const source = fixture();
    const other = fixture({ keys: [KEY_B] });
    const token = await source.sealer.seal(bytes('state'), BINDING);
    await expectRejected(other.sealer.open(token, BINDING), other.log, 'unknown_key');
  });

  it('rejects the key id of a ring member spliced onto a token sealed by another key as tampered', async () => {
    const b = fixture({ keys: [KEY_B] });
    const ring = fixture({ keys: [KEY_A, KEY_B], replayStore: false });
    const fromA = tokenBytes(await ring.sealer.seal(bytes('state'), BINDING));
    const fromB = tokenBytes(await b.sealer.seal(bytes('state'), BINDING));
    const spliced = Buffer.from(fromA);
    fromB.copy(spliced, 1, 1, 5); // KEY_B's id onto a token sealed with the first key
    await expectRejected(ring.sealer.open(asToken(spliced), BINDING), ring.log, 'tampered');
  });

  it('rejects anything that is not a string as not_a_string', async () => {
    const { sealer, log } = fixture({ replayStore: false });
    const token = await sealer.seal(bytes('state'), BINDING);
    // A boxed string is exactly what must be refused.
    const boxed = new String(token);
    for (const value of [
      undefined,
      null,
      0,
      1n,
      true,
      {},
      [],
      [token],
      { token },
      boxed,
      Buffer.from(token),
      Symbol('t'),
    ]) {
      await expectRejected(sealer.open(value, BINDING), log, 'not_a_string');
    }
  });

  it('rejects the empty string and long garbage as malformed', async () => {
    const { sealer, log } = fixture();
    await expectRejected(sealer.open('', BINDING), log, 'malformed');
    await expectRejected(sealer.open('x'.repeat(100_001), BINDING), log, 'malformed');
    await expectRejected(sealer.open('not a token at all', BINDING), log, 'malformed');
  });

  it('rejects a codec envelope presented to the built-in format', async () => {
    const log = captureLog();
    const codec = {
      seal: (b: Uint8Array) => Buffer.from(b).toString('base64url'),
      unseal: (t: string) => new Uint8Array(Buffer.from(t, 'base64url')),
    };
    const codecSide = fixture({ keys: undefined, codec });
    const token = await codecSide.sealer.seal(bytes('state'), BINDING);
    const builtin = fixture({ sink: log.sink });
    await expectRejected(builtin.sealer.open(token, BINDING), log, 'bad_version');
  });
});
