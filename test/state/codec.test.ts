import { afterEach, describe, expect, it } from 'vitest';

import type { SealingCodec } from '../../src/contracts/index.js';
import { ENVELOPE_OVERHEAD_BYTES, ENVELOPE_VERSION } from '../../src/state/envelope.js';
import { REQUEST_STATE_KEYS_ENV } from '../../src/contracts/index.js';
import { BINDING, KEY_A, T0, bytes, expectRejected, fixture, protocolRejection, testClock, wireOf } from './helpers.js';

/** Identity-ish codec: base64url of the envelope, no protection at all, so every check seen here is the library's. */
const sealBase64 = (plaintext: Uint8Array): string => Buffer.from(plaintext).toString('base64url');
const unsealBase64 = (token: string): Uint8Array => new Uint8Array(Buffer.from(token, 'base64url'));
const base64Codec: SealingCodec = { seal: sealBase64, unseal: unsealBase64 };

function codecFixture(codec: SealingCodec = base64Codec, name = 'refund-desk', clock = testClock()) {
  return fixture({ keys: undefined, codec, replayStore: false }, name, clock);
}

afterEach(() => {
  delete process.env[REQUEST_STATE_KEYS_ENV];
});

describe('bring-your-own codec', () => {
  it('round-trips through the codec, which sees the library envelope', async () => {
    const { sealer } = codecFixture();
    const token = await sealer.seal(bytes('state'), BINDING);
    const envelope = Buffer.from(token, 'base64url');
    expect(envelope[0]).toBe(ENVELOPE_VERSION);
    expect(envelope.length).toBe(ENVELOPE_OVERHEAD_BYTES + 5);
    expect(ENVELOPE_OVERHEAD_BYTES).toBe(71);
    expect(await sealer.open(token, BINDING)).toEqual(bytes('state'));
  });

  it('accepts an asynchronous codec and a 1 MiB payload', async () => {
    const asyncCodec: SealingCodec = {
      seal: async (plaintext) => sealBase64(plaintext),
      unseal: async (token) => unsealBase64(token),
    };
    const { sealer } = codecFixture(asyncCodec);
    const large = new Uint8Array(1024 * 1024).map((_, index) => index % 251);
    expect(Buffer.from(await sealer.open(await sealer.seal(large, BINDING), BINDING)).equals(Buffer.from(large))).toBe(
      true,
    );
  });

  it('still enforces the TTL and the skew window', async () => {
    const { sealer, clock, log } = codecFixture();
    const token = await sealer.seal(bytes('s'), BINDING);
    clock.set(T0 + 630_000);
    expect(await sealer.open(token, BINDING)).toEqual(bytes('s'));
    clock.set(T0 + 630_001);
    await expectRejected(sealer.open(token, BINDING), log, 'expired');
    const future = codecFixture(base64Codec, 'refund-desk', testClock(T0 + 30_001));
    const early = await future.sealer.seal(bytes('s'), BINDING);
    clock.set(T0);
    await expectRejected(sealer.open(early, BINDING), log, 'not_yet_valid');
  });

  it('still enforces the request binding (canonical arguments), the audience and the principal', async () => {
    const { sealer, log } = codecFixture();
    const alice = { ...BINDING, principal: 'alice' };
    const token = await sealer.seal(bytes('s'), alice);
    await expectRejected(sealer.open(token, { ...alice, target: 'other' }), log, 'binding_mismatch');
    await expectRejected(
      sealer.open(token, { ...alice, method: 'prompts/get' }),
      log,
      'binding_mismatch',
      'prompts/get',
    );
    await expectRejected(sealer.open(token, { ...alice, arguments: { orderId: 'ORD-1' } }), log, 'binding_mismatch');
    await expectRejected(sealer.open(token, { ...alice, principal: 'bob' }), log, 'principal_mismatch');
    await expectRejected(sealer.open(token, BINDING), log, 'principal_mismatch');
    const billing = codecFixture(base64Codec, 'billing');
    await expectRejected(billing.sealer.open(token, alice), billing.log, 'audience_mismatch');
    const reordered = { ...alice, arguments: { amount: 42.5, orderId: 'ORD-1234' } };
    expect(await sealer.open(token, reordered)).toEqual(bytes('s'));
  });

  it('still enforces the replay guard', async () => {
    const f = fixture({ keys: undefined, codec: base64Codec });
    const token = await f.sealer.seal(bytes('s'), BINDING);
    await f.sealer.open(token, BINDING);
    await expectRejected(f.sealer.open(token, BINDING), f.log, 'replayed');
  });

  it('keeps the principal out of the envelope the codec sees', async () => {
    const { sealer } = codecFixture();
    const principal = '["app","https://issuer.example","alice@example.com"]';
    const envelope = Buffer.from(await sealer.seal(bytes('s'), { ...BINDING, principal }), 'base64url');
    for (const encoding of ['utf8', 'utf16le'] as const) {
      expect(envelope.includes(Buffer.from('alice@example.com', encoding))).toBe(false);
    }
  });

  it('rejects envelopes of another version or too short', async () => {
    const { sealer, log } = codecFixture();
    const envelope = Buffer.from(await sealer.seal(bytes('s'), BINDING), 'base64url');
    const otherVersion = Buffer.from(envelope);
    otherVersion[0] = 0x01;
    await expectRejected(sealer.open(otherVersion.toString('base64url'), BINDING), log, 'bad_version');
    await expectRejected(
      sealer.open(envelope.subarray(0, ENVELOPE_OVERHEAD_BYTES - 1).toString('base64url'), BINDING),
      log,
      'malformed',
    );
    await expectRejected(sealer.open('', BINDING), log, 'malformed');
  });

  it('turns a codec that throws on seal into a bare -32603 and logs no detail', async () => {
    const throwing: SealingCodec = {
      seal: () => {
        throw new Error('KMS said no to SECRET-KMS-DETAIL');
      },
      unseal: unsealBase64,
    };
    const { sealer, log } = codecFixture(throwing);
    const error = await protocolRejection(sealer.seal(bytes('PLAINTEXT'), BINDING));
    expect(wireOf(error)).toEqual({ code: -32603, message: 'Internal error', data: undefined });
    expect(log.lines).toEqual(['requestState sealing failed on tools/call: codec_error']);
  });

  it('turns a codec that returns a non-string into a bare -32603', async () => {
    const sloppy = { seal: () => 42, unseal: unsealBase64 };
    // @ts-expect-error - a JavaScript codec can return anything
    const { sealer, log } = codecFixture(sloppy);
    expect((await protocolRejection(sealer.seal(bytes('s'), BINDING))).code).toBe(-32603);
    expect(log.lines).toEqual(['requestState sealing failed on tools/call: codec_error']);
  });

  it('turns a codec that throws on unseal, or returns a non-Uint8Array, into the frozen error', async () => {
    const throwing: SealingCodec = {
      seal: sealBase64,
      unseal: () => {
        throw new Error('not minted here: SECRET-KMS-DETAIL');
      },
    };
    const a = codecFixture(throwing);
    await expectRejected(a.sealer.open(await a.sealer.seal(bytes('s'), BINDING), BINDING), a.log, 'codec_error');
    const sloppy = { seal: sealBase64, unseal: () => 'bytes?' };
    // @ts-expect-error - a JavaScript codec can return anything
    const b = codecFixture(sloppy);
    await expectRejected(b.sealer.open(await b.sealer.seal(bytes('s'), BINDING), BINDING), b.log, 'codec_error');
    expect([...a.log.lines, ...b.log.lines].join('\n')).not.toContain('SECRET');
  });

  it('ignores the key environment variable when a codec is configured', async () => {
    process.env[REQUEST_STATE_KEYS_ENV] = 'not a key';
    const { sealer } = codecFixture();
    expect(await sealer.open(await sealer.seal(bytes('s'), BINDING), BINDING)).toEqual(bytes('s'));
  });

  it('rejects a built-in token presented to a codec sealer', async () => {
    const builtin = fixture({ keys: [KEY_A] });
    const { sealer, log } = codecFixture();
    await expectRejected(sealer.open(await builtin.sealer.seal(bytes('s'), BINDING), BINDING), log, 'bad_version');
  });
});
