/**
 * The built-in token: AES-256-GCM with the binding in the associated data.
 *
 * Byte layout (then base64url without padding):
 *
 * | offset | bytes | field                                                             |
 * |--------|-------|-------------------------------------------------------------------|
 * | 0      | 1     | version `0x04`                                                    |
 * | 1      | 4     | key id (HKDF-derived)                                             |
 * | 5      | 6     | issued-at, ms since the epoch, unsigned big-endian                |
 * | 11     | 12    | GCM nonce (random); also the token id                             |
 * | 23     | 3     | mismatch hints: 1 byte each for request, audience, principal      |
 * | 26     | 6     | header proof = HMAC(hintKey, 0xff ‖ bytes 0..26)[0..6]            |
 * | 32     | n     | ciphertext                                                        |
 * | 32 + n | 16    | GCM tag                                                           |
 *
 * Associated data = bytes 0..32 ‖ request digest ‖ audience digest ‖ salted principal, so the
 * header and the whole binding are authenticated at full strength without travelling.
 *
 * The hints are the first byte of each component's digest, masked with HMAC(hintKey, 0x00 ‖
 * nonce) (so tokens cannot be linked); they only serve to name the reason of a failure in the log,
 * and only once proven: when GCM fails, the header proof (which does not depend on the binding) is
 * checked first; only an authentic header's hints are compared with the inbound binding. A
 * differing authentic hint proves that component changed; an equal one is merely inconclusive (a
 * changed component keeps its 1-byte hint with probability 1/256), so when no hint differs the
 * reason is the generic `tampered`. A header that does not authenticate is `tampered`, whatever its
 * hint bytes say. Nothing is computed for the log on the success path. The proof is 48 bits: it
 * guards the accuracy of a log line, not the token (GCM does that). Header and tag are 48 bytes, a
 * multiple of 3, so a token is exactly 64 base64url characters longer than base64url(plaintext).
 */
import {
  concatBytes,
  equalBytes,
  fromBase64urlStrict,
  readUint32,
  readUint48,
  writeUint32,
  writeUint48,
} from './bytes.js';
import type { BindingDigest } from './binding.js';
import { saltedPrincipal } from './binding.js';
import type { RejectReason } from './errors.js';
import type { DerivedKey, KeyRing } from './keys.js';
import type { CryptoPrimitives } from './primitives.js';
import { GCM_TAG_BYTES } from './primitives.js';
import { isPromiseLike } from '../promise.js';

/**
 * The version byte of the built-in token format. Earlier layouts are rejected as `bad_version`:
 * `0x01` had no header proof, `0x03` had 2-byte hints; `0x02` is the codec envelope.
 */
export const TOKEN_VERSION = 0x04;

const OFFSET_KEY_ID = 1;
const OFFSET_ISSUED_AT = 5;
const OFFSET_NONCE = 11;
const NONCE_BYTES = 12;
const OFFSET_HINTS = 23;
const HINT_COUNT = 3;
const OFFSET_PROOF = 26;
const PROOF_BYTES = 6;
const HEADER_BYTES = 32;

/** Bytes a built-in token adds to the plaintext before base64url (header + tag). */
export const TOKEN_OVERHEAD_BYTES = HEADER_BYTES + GCM_TAG_BYTES;

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

const PROOF_LABEL = Uint8Array.of(0xff);
const MASK_LABEL = Uint8Array.of(0x00);

function associatedData(
  header: Uint8Array,
  binding: BindingDigest,
  audience: Uint8Array,
  principal: Uint8Array,
): Uint8Array {
  return concatBytes([header, binding.request, audience, principal]);
}

/** Writes the three 1-byte hints (request, audience, principal) under one per-token mask: one HMAC, not three. */
function writeHints(
  target: Uint8Array,
  offset: number,
  key: DerivedKey,
  nonce: Uint8Array,
  binding: BindingDigest,
  audience: Uint8Array,
  principal: Uint8Array,
): void {
  const mask = key.hintMac([MASK_LABEL, nonce]);
  // The salted principal is 0x00 (absent) or 0x01 ‖ HMAC: its hint is the HMAC's first byte, or zero.
  const principalHint = principal.length > 1 ? (principal[1] ?? 0) : 0;
  target[offset] = (binding.request[0] ?? 0) ^ (mask[0] ?? 0);
  target[offset + 1] = (audience[0] ?? 0) ^ (mask[1] ?? 0);
  target[offset + 2] = principalHint ^ (mask[2] ?? 0);
}

function headerProof(key: DerivedKey, token: Uint8Array): Uint8Array {
  return key.hintMac([PROOF_LABEL, token.subarray(0, OFFSET_PROOF)]).subarray(0, PROOF_BYTES);
}

const NONCE_POOL_BYTES = NONCE_BYTES * 256;

/** 12 fresh CSPRNG bytes per call, drawn from a pool (each byte used once: one random call per 256 nonces). */
function noncePool(primitives: CryptoPrimitives): (target: Uint8Array, offset: number) => void {
  const pool = new Uint8Array(NONCE_POOL_BYTES);
  let used = NONCE_POOL_BYTES;
  return (target, offset) => {
    if (used + NONCE_BYTES > pool.length) {
      primitives.fillRandom(pool);
      used = 0;
    }
    target.set(pool.subarray(used, used + NONCE_BYTES), offset);
    pool.fill(0, used, used + NONCE_BYTES);
    used += NONCE_BYTES;
  };
}

/** The built-in format over one ring and audience: seal under the first key, open under any. */
export interface BuiltinTokens {
  /** Seals a payload bound to a request digest (synchronously where the primitives are). */
  seal(issuedAt: number, binding: BindingDigest, plaintext: Uint8Array): string | Promise<string>;
  /** Decodes, authenticates and decrypts a token against the binding it must match. */
  open(text: string, binding: BindingDigest): OpenOutcome | Promise<OpenOutcome>;
}

/** Creates the built-in token format for a ring and an audience digest. */
export function builtinTokens(ring: KeyRing, audience: Uint8Array, primitives: CryptoPrimitives): BuiltinTokens {
  const writeNonce = noncePool(primitives);
  const encode = primitives.encodeBase64url;

  const seal = (issuedAt: number, binding: BindingDigest, plaintext: Uint8Array): string | Promise<string> => {
    const key = ring.sealing;
    const header = new Uint8Array(HEADER_BYTES);
    header[0] = TOKEN_VERSION;
    writeUint32(header, OFFSET_KEY_ID, key.id);
    writeUint48(header, OFFSET_ISSUED_AT, issuedAt);
    writeNonce(header, OFFSET_NONCE);
    const nonce = header.subarray(OFFSET_NONCE, OFFSET_NONCE + NONCE_BYTES);
    const principal = saltedPrincipal(key.principalMac, binding.principal);
    writeHints(header, OFFSET_HINTS, key, nonce, binding, audience, principal);
    header.set(headerProof(key, header), OFFSET_PROOF);
    const aad = associatedData(header, binding, audience, principal);
    const token = key.aead.encrypt(nonce, aad, plaintext, header);
    return isPromiseLike(token) ? token.then(encode) : encode(token);
  };

  /** Why GCM failed, named only from an authenticated header (see the module comment). */
  const diagnose = (
    key: DerivedKey,
    token: Uint8Array,
    binding: BindingDigest,
    principal: Uint8Array,
  ): RejectReason => {
    if (!equalBytes(headerProof(key, token), token.subarray(OFFSET_PROOF, HEADER_BYTES))) return 'tampered';
    const nonce = token.subarray(OFFSET_NONCE, OFFSET_NONCE + NONCE_BYTES);
    const expected = new Uint8Array(HINT_COUNT);
    writeHints(expected, 0, key, nonce, binding, audience, principal);
    const differs = (index: number) => expected[index] !== token[OFFSET_HINTS + index];
    if (differs(1)) return 'audience_mismatch';
    if (differs(0)) return 'binding_mismatch';
    if (differs(2)) return 'principal_mismatch';
    return 'tampered'; // an authentic header over an altered ciphertext or tag
  };

  const opened = (
    key: DerivedKey,
    token: Uint8Array,
    binding: BindingDigest,
    principal: Uint8Array,
    plaintext: Uint8Array | undefined,
  ): OpenOutcome => {
    if (plaintext === undefined) return { ok: false, reason: diagnose(key, token, binding, principal) };
    const nonce = token.subarray(OFFSET_NONCE, OFFSET_NONCE + NONCE_BYTES);
    return { ok: true, token: { plaintext, issuedAt: readUint48(token, OFFSET_ISSUED_AT), tokenId: encode(nonce) } };
  };

  const open = (text: string, binding: BindingDigest): OpenOutcome | Promise<OpenOutcome> => {
    const token = fromBase64urlStrict(text, primitives.decodeBase64url);
    if (token === undefined || token.length === 0) return { ok: false, reason: 'malformed' };
    if (token[0] !== TOKEN_VERSION) return { ok: false, reason: 'bad_version' };
    if (token.length < TOKEN_OVERHEAD_BYTES) return { ok: false, reason: 'malformed' };
    const key = ring.byId.get(readUint32(token, OFFSET_KEY_ID));
    if (key === undefined) return { ok: false, reason: 'unknown_key' };
    const principal = saltedPrincipal(key.principalMac, binding.principal);
    const header = token.subarray(0, HEADER_BYTES);
    const nonce = token.subarray(OFFSET_NONCE, OFFSET_NONCE + NONCE_BYTES);
    const plaintext = key.aead.decrypt(
      nonce,
      associatedData(header, binding, audience, principal),
      token.subarray(HEADER_BYTES),
    );
    return isPromiseLike(plaintext)
      ? plaintext.then((bytes) => opened(key, token, binding, principal, bytes))
      : opened(key, token, binding, principal, plaintext);
  };

  return { seal, open };
}
