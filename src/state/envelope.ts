/**
 * The envelope handed to a bring-your-own codec: the library's own stamps around the payload.
 *
 * A codec has no associated data, so the binding travels inside the codec's plaintext as
 * per-token salted MACs (never the principal in clear). Byte layout:
 *
 * | offset | bytes | field                                                      |
 * |--------|-------|------------------------------------------------------------|
 * | 0      | 1     | envelope version `0x02`                                    |
 * | 1      | 6     | issued-at, ms since the epoch, unsigned big-endian         |
 * | 7      | 16    | random token id, also the HMAC key (salt) of the three tags |
 * | 23     | 16    | request tag   = HMAC-SHA256(id, 0x00 ‖ request digest)[0..16] |
 * | 39     | 16    | audience tag  = HMAC-SHA256(id, 0x01 ‖ audience digest)[0..16] |
 * | 55     | 16    | principal tag = HMAC-SHA256(id, 0x02 ‖ principal bytes)[0..16] |
 * | 71     | n     | payload                                                    |
 *
 * Integrity of the whole envelope is the codec's job (it must throw for anything it did not mint).
 */
import type { BindingDigest } from './binding.js';
import { principalBytes } from './binding.js';
import { concatBytes, equalBytes, readUint48, toBase64url, writeUint48 } from './bytes.js';
import type { CryptoPrimitives } from './primitives.js';
import type { OpenOutcome } from './token.js';

/** The version byte of the codec envelope (distinct from every built-in token version). */
export const ENVELOPE_VERSION = 0x02;

const OFFSET_ENVELOPE_ISSUED_AT = 1;
const OFFSET_ID = 7;
const ID_BYTES = 16;
const OFFSET_TAGS = 23;
const MAC_TAG_BYTES = 16;

/** Bytes the envelope adds to the payload before the codec sees it. */
export const ENVELOPE_OVERHEAD_BYTES = OFFSET_TAGS + 3 * MAC_TAG_BYTES;

function tags(id: Uint8Array, binding: BindingDigest, audience: Uint8Array, primitives: CryptoPrimitives): Uint8Array {
  const mac = primitives.hmacKey(id);
  const parts = [binding.request, audience, principalBytes(binding.principal)];
  return concatBytes(parts.map((part, index) => mac([Uint8Array.of(index), part]).subarray(0, MAC_TAG_BYTES)));
}

/** Wraps a payload with issued-at, a random token id and the binding tags. */
export function buildEnvelope(
  issuedAt: number,
  binding: BindingDigest,
  audience: Uint8Array,
  plaintext: Uint8Array,
  primitives: CryptoPrimitives,
): Uint8Array {
  const id = new Uint8Array(ID_BYTES);
  primitives.fillRandom(id);
  const envelope = new Uint8Array(ENVELOPE_OVERHEAD_BYTES + plaintext.length);
  envelope[0] = ENVELOPE_VERSION;
  writeUint48(envelope, OFFSET_ENVELOPE_ISSUED_AT, issuedAt);
  envelope.set(id, OFFSET_ID);
  envelope.set(tags(id, binding, audience, primitives), OFFSET_TAGS);
  envelope.set(plaintext, ENVELOPE_OVERHEAD_BYTES);
  return envelope;
}

/**
 * Parses an envelope the codec returned and checks its tags against the inbound binding. The codec
 * authenticated the whole envelope (it throws for anything it did not mint), so a differing tag is a
 * proven mismatch.
 */
export function openEnvelope(
  envelope: Uint8Array,
  binding: BindingDigest,
  audience: Uint8Array,
  primitives: CryptoPrimitives,
): OpenOutcome {
  if (envelope.length === 0) return { ok: false, reason: 'malformed' };
  if (envelope[0] !== ENVELOPE_VERSION) return { ok: false, reason: 'bad_version' };
  if (envelope.length < ENVELOPE_OVERHEAD_BYTES) return { ok: false, reason: 'malformed' };
  const id = envelope.subarray(OFFSET_ID, OFFSET_ID + ID_BYTES);
  const expected = tags(id, binding, audience, primitives);
  const same = (index: number): boolean =>
    equalBytes(
      expected.subarray(index * MAC_TAG_BYTES, (index + 1) * MAC_TAG_BYTES),
      envelope.subarray(OFFSET_TAGS + index * MAC_TAG_BYTES, OFFSET_TAGS + (index + 1) * MAC_TAG_BYTES),
    );
  if (!same(1)) return { ok: false, reason: 'audience_mismatch' };
  if (!same(0)) return { ok: false, reason: 'binding_mismatch' };
  if (!same(2)) return { ok: false, reason: 'principal_mismatch' };
  return {
    ok: true,
    token: {
      plaintext: Uint8Array.from(envelope.subarray(ENVELOPE_OVERHEAD_BYTES)), // a copy, even of a Buffer
      issuedAt: readUint48(envelope, OFFSET_ENVELOPE_ISSUED_AT),
      tokenId: toBase64url(id),
    },
  };
}
