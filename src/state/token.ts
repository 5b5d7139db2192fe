/**
 * The built-in token: AES-256-GCM with the binding in the associated data.
 *
 * Byte layout (then base64url without padding):
 *
 * | offset | bytes | field                                                      |
 * |--------|-------|------------------------------------------------------------|
 * | 0      | 1     | version `0x01`                                             |
 * | 1      | 4     | key id (HKDF-derived)                                      |
 * | 5      | 6     | issued-at, ms since the epoch, unsigned big-endian         |
 * | 11     | 12    | GCM nonce (random); also the token id                      |
 * | 23     | 6     | mismatch hints: 2 bytes each for request, audience, principal |
 * | 29     | n     | ciphertext                                                 |
 * | 29 + n | 16    | GCM tag                                                    |
 *
 * Associated data = bytes 0..29 ‖ request digest ‖ audience digest ‖ salted principal, so the
 * header (version, key id, issued-at, hints) and the whole binding are authenticated without
 * travelling. The hints are truncated HMACs over the nonce (so tokens cannot be linked) that only
 * serve to name the reason of a failure in the log.
 */
import { createCipheriv, createDecipheriv, createHmac, randomFillSync } from 'node:crypto';

import type { BindingDigest } from './binding.js';
import { saltedPrincipal } from './binding.js';
import type { RejectReason } from './errors.js';
import type { DerivedKey, KeyRing } from './keys.js';

/** The version byte of the built-in token format. */
export const TOKEN_VERSION = 0x01;

const OFFSET_KEY_ID = 1;
const OFFSET_ISSUED_AT = 5;
const ISSUED_AT_BYTES = 6;
const OFFSET_NONCE = 11;
const NONCE_BYTES = 12;
const OFFSET_HINTS = 23;
const HINT_BYTES = 2;
const HEADER_BYTES = 29;
const TAG_BYTES = 16;

/** Bytes a built-in token adds to the plaintext before base64url (header + tag). */
export const TOKEN_OVERHEAD_BYTES = HEADER_BYTES + TAG_BYTES;

/** The largest issued-at the 6-byte field holds (ms since the epoch, year 10889). */
export const MAX_ISSUED_AT = 2 ** 48 - 1;

/** What a successfully opened token yields before the time and replay checks. */
export interface OpenedToken {
  /** The decrypted payload. */
  readonly plaintext: Uint8Array;
  /** When the token was sealed (ms since the epoch, authenticated). */
  readonly issuedAt: number;
  /** A random identifier unique to this token, for the replay guard. */
  readonly tokenId: string;
}

/** Either an opened token or the reason it was rejected. */
export type OpenOutcome =
  { readonly ok: true; readonly token: OpenedToken } | { readonly ok: false; readonly reason: RejectReason };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Decodes unpadded base64url exactly: no other characters, no padding, no non-zero trailing bits. */
function decodeBase64urlStrict(text: string): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const remainder = text.length % 4;
  if (remainder === 1) return undefined;
  if (remainder !== 0) {
    const last = ALPHABET.indexOf(text.charAt(text.length - 1));
    if ((last & (remainder === 2 ? 0x0f : 0x03)) !== 0) return undefined;
  }
  return Buffer.from(text, 'base64url');
}

function associatedData(header: Buffer, binding: BindingDigest, audience: Buffer, principal: Buffer): Buffer {
  return Buffer.concat([header, binding.request, audience, principal]);
}

function hint(key: DerivedKey, label: number, nonce: Buffer, digest: Buffer): Buffer {
  return createHmac('sha256', key.hintKey)
    .update(Buffer.of(label))
    .update(nonce)
    .update(digest)
    .digest()
    .subarray(0, HINT_BYTES);
}

function hints(key: DerivedKey, nonce: Buffer, binding: BindingDigest, audience: Buffer, principal: Buffer): Buffer {
  return Buffer.concat([
    hint(key, 0, nonce, binding.request),
    hint(key, 1, nonce, audience),
    hint(key, 2, nonce, principal),
  ]);
}

const NONCE_POOL_BYTES = NONCE_BYTES * 256;
let noncePool = Buffer.alloc(0);
let noncePoolOffset = 0;

/** Copies 12 fresh CSPRNG bytes into `target` (drawn from a pool, each byte used once: one syscall per 256 nonces). */
function writeNonce(target: Buffer, offset: number): void {
  if (noncePoolOffset + NONCE_BYTES > noncePool.length) {
    noncePool = randomFillSync(Buffer.allocUnsafe(NONCE_POOL_BYTES));
    noncePoolOffset = 0;
  }
  noncePool.copy(target, offset, noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePool.fill(0, noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePoolOffset += NONCE_BYTES;
}

/** Seals a payload under the ring's sealing key, bound to a request digest and an audience digest. */
export function sealToken(
  key: DerivedKey,
  issuedAt: number,
  binding: BindingDigest,
  audience: Buffer,
  plaintext: Uint8Array,
): string {
  const token = Buffer.alloc(HEADER_BYTES + plaintext.length + TAG_BYTES);
  token[0] = TOKEN_VERSION;
  token.writeUInt32BE(key.id, OFFSET_KEY_ID);
  token.writeUIntBE(issuedAt, OFFSET_ISSUED_AT, ISSUED_AT_BYTES);
  writeNonce(token, OFFSET_NONCE);
  const nonce = token.subarray(OFFSET_NONCE, OFFSET_NONCE + NONCE_BYTES);
  const principal = saltedPrincipal(key.principalKey, binding.principal);
  hints(key, nonce, binding, audience, principal).copy(token, OFFSET_HINTS);
  const cipher = createCipheriv('aes-256-gcm', key.encryptionKey, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(token.subarray(0, HEADER_BYTES), binding, audience, principal));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  ciphertext.copy(token, HEADER_BYTES);
  cipher.getAuthTag().copy(token, HEADER_BYTES + ciphertext.length);
  return token.toString('base64url');
}

/** Names the bound component whose hint differs (audience first), or `tampered` when none or all differ. */
function diagnose(
  key: DerivedKey,
  token: Buffer,
  binding: BindingDigest,
  audience: Buffer,
  principal: Buffer,
): RejectReason {
  const nonce = token.subarray(OFFSET_NONCE, OFFSET_NONCE + NONCE_BYTES);
  const expected = hints(key, nonce, binding, audience, principal);
  const actual = token.subarray(OFFSET_HINTS, OFFSET_HINTS + 3 * HINT_BYTES);
  const differs = [0, 1, 2].map(
    (index) =>
      !expected
        .subarray(index * HINT_BYTES, (index + 1) * HINT_BYTES)
        .equals(actual.subarray(index * HINT_BYTES, (index + 1) * HINT_BYTES)),
  );
  // None or all differing: the header itself (nonce, key id) was altered, or everything is foreign.
  if (differs.every(Boolean) || !differs.some(Boolean)) return 'tampered';
  if (differs[1] === true) return 'audience_mismatch';
  if (differs[0] === true) return 'binding_mismatch';
  return 'principal_mismatch';
}

/** Decodes, authenticates and decrypts a built-in token against the binding it must match. */
export function openToken(ring: KeyRing, text: string, binding: BindingDigest, audience: Buffer): OpenOutcome {
  const token = decodeBase64urlStrict(text);
  if (token === undefined || token.length === 0) return { ok: false, reason: 'malformed' };
  if (token[0] !== TOKEN_VERSION) return { ok: false, reason: 'bad_version' };
  if (token.length < TOKEN_OVERHEAD_BYTES) return { ok: false, reason: 'malformed' };
  const key = ring.byId.get(token.readUInt32BE(OFFSET_KEY_ID));
  if (key === undefined) return { ok: false, reason: 'unknown_key' };
  const principal = saltedPrincipal(key.principalKey, binding.principal);
  const nonce = token.subarray(OFFSET_NONCE, OFFSET_NONCE + NONCE_BYTES);
  const tagStart = token.length - TAG_BYTES;
  const decipher = createDecipheriv('aes-256-gcm', key.encryptionKey, nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(token.subarray(0, HEADER_BYTES), binding, audience, principal));
  decipher.setAuthTag(token.subarray(tagStart));
  let body: Buffer;
  let tail: Buffer;
  try {
    body = decipher.update(token.subarray(HEADER_BYTES, tagStart));
    tail = decipher.final();
  } catch {
    return { ok: false, reason: diagnose(key, token, binding, audience, principal) };
  }
  // A fresh array of its own: never a view into Node's shared buffer pool.
  const plaintext = new Uint8Array(body.length + tail.length);
  plaintext.set(body);
  plaintext.set(tail, body.length);
  return {
    ok: true,
    token: {
      plaintext,
      issuedAt: token.readUIntBE(OFFSET_ISSUED_AT, ISSUED_AT_BYTES),
      tokenId: nonce.toString('base64url'),
    },
  };
}
