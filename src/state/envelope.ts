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
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import type { BindingDigest } from './binding.js';
import { principalBytes } from './binding.js';
import type { OpenOutcome } from './token.js';

/** The version byte of the codec envelope (distinct from the built-in token's `0x01`). */
export const ENVELOPE_VERSION = 0x02;

const OFFSET_ISSUED_AT = 1;
const ISSUED_AT_BYTES = 6;
const OFFSET_ID = 7;
const ID_BYTES = 16;
const OFFSET_TAGS = 23;
const TAG_BYTES = 16;

/** Bytes the envelope adds to the payload before the codec sees it. */
export const ENVELOPE_OVERHEAD_BYTES = OFFSET_TAGS + 3 * TAG_BYTES;

function tags(id: Buffer, binding: BindingDigest, audience: Buffer): Buffer {
  const parts = [binding.request, audience, principalBytes(binding.principal)];
  return Buffer.concat(
    parts.map((part, index) =>
      createHmac('sha256', id).update(Buffer.of(index)).update(part).digest().subarray(0, TAG_BYTES),
    ),
  );
}

function copyOf(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

/** Wraps a payload with issued-at, a random token id and the binding tags. */
export function buildEnvelope(
  issuedAt: number,
  binding: BindingDigest,
  audience: Buffer,
  plaintext: Uint8Array,
): Uint8Array {
  const id = randomBytes(ID_BYTES);
  const header = Buffer.alloc(OFFSET_ID);
  header[0] = ENVELOPE_VERSION;
  header.writeUIntBE(issuedAt, OFFSET_ISSUED_AT, ISSUED_AT_BYTES);
  const bindingTags = tags(id, binding, audience);
  // A fresh array of its own: never a view into Node's shared buffer pool.
  const envelope = new Uint8Array(ENVELOPE_OVERHEAD_BYTES + plaintext.length);
  envelope.set(header, 0);
  envelope.set(id, OFFSET_ID);
  envelope.set(bindingTags, OFFSET_TAGS);
  envelope.set(plaintext, ENVELOPE_OVERHEAD_BYTES);
  return envelope;
}

/** Parses an envelope the codec returned and checks its tags against the inbound binding. */
export function openEnvelope(bytes: Uint8Array, binding: BindingDigest, audience: Buffer): OpenOutcome {
  const envelope = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (envelope.length === 0) return { ok: false, reason: 'malformed' };
  if (envelope[0] !== ENVELOPE_VERSION) return { ok: false, reason: 'bad_version' };
  if (envelope.length < ENVELOPE_OVERHEAD_BYTES) return { ok: false, reason: 'malformed' };
  const id = envelope.subarray(OFFSET_ID, OFFSET_ID + ID_BYTES);
  const expected = tags(id, binding, audience);
  const same = (index: number): boolean =>
    timingSafeEqual(
      expected.subarray(index * TAG_BYTES, (index + 1) * TAG_BYTES),
      envelope.subarray(OFFSET_TAGS + index * TAG_BYTES, OFFSET_TAGS + (index + 1) * TAG_BYTES),
    );
  if (!same(1)) return { ok: false, reason: 'audience_mismatch' };
  if (!same(0)) return { ok: false, reason: 'binding_mismatch' };
  if (!same(2)) return { ok: false, reason: 'principal_mismatch' };
  return {
    ok: true,
    token: {
      plaintext: copyOf(envelope.subarray(ENVELOPE_OVERHEAD_BYTES)),
      issuedAt: envelope.readUIntBE(OFFSET_ISSUED_AT, ISSUED_AT_BYTES),
      tokenId: id.toString('base64url'),
    },
  };
}
