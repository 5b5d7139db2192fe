/**
 * Byte helpers on plain `Uint8Array`s, so the token formats read and write the same bytes on every
 * runtime (no `Buffer`): concatenation, big-endian integers, UTF-16LE code units, strict base64url,
 * and the hex/base64 decoders of key strings. Text codecs are the Web-standard ones.
 */

/** Concatenates byte arrays into one fresh array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A 4-byte big-endian length prefix. */
export function lengthPrefix(length: number): Uint8Array {
  const out = new Uint8Array(4);
  writeUint32(out, 0, length);
  return out;
}

/** Writes an unsigned 32-bit big-endian integer. */
export function writeUint32(target: Uint8Array, offset: number, value: number): void {
  target[offset] = (value >>> 24) & 0xff;
  target[offset + 1] = (value >>> 16) & 0xff;
  target[offset + 2] = (value >>> 8) & 0xff;
  target[offset + 3] = value & 0xff;
}

/** Reads an unsigned 32-bit big-endian integer. */
export function readUint32(source: Uint8Array, offset: number): number {
  return (
    ((source[offset] ?? 0) * 0x1000000 +
      (((source[offset + 1] ?? 0) << 16) | ((source[offset + 2] ?? 0) << 8) | (source[offset + 3] ?? 0))) >>>
    0
  );
}

/** Writes an unsigned 48-bit big-endian integer (a millisecond timestamp). */
export function writeUint48(target: Uint8Array, offset: number, value: number): void {
  const high = Math.floor(value / 0x100000000);
  target[offset] = (high >>> 8) & 0xff;
  target[offset + 1] = high & 0xff;
  writeUint32(target, offset + 2, value >>> 0);
}

/** Reads an unsigned 48-bit big-endian integer. */
export function readUint48(source: Uint8Array, offset: number): number {
  const high = ((source[offset] ?? 0) << 8) | (source[offset + 1] ?? 0);
  return high * 0x100000000 + readUint32(source, offset + 2);
}

/** A string's UTF-16 code units, little-endian: lossless even for lone surrogates. */
export function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    out[index * 2] = unit & 0xff;
    out[index * 2 + 1] = unit >>> 8;
  }
  return out;
}

const utf8Encoder = new TextEncoder();

/** A string's UTF-8 bytes. */
export function utf8(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

/** Compares two byte ranges in time independent of where they differ. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let index = 0; index < a.length; index++) diff |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return diff === 0;
}

const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Every 12-bit value as its two base64url characters, so encoding costs two lookups per 3 bytes. */
const PAIRS: readonly string[] = Array.from(
  { length: 4096 },
  (_, value) => URL_ALPHABET.charAt(value >>> 6) + URL_ALPHABET.charAt(value & 63),
);

/** Encodes bytes as unpadded base64url. */
export function toBase64url(bytes: Uint8Array): string {
  let out = '';
  const whole = bytes.length - (bytes.length % 3);
  for (let index = 0; index < whole; index += 3) {
    const n = ((bytes[index] ?? 0) << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    out += (PAIRS[n >>> 12] ?? '') + (PAIRS[n & 0xfff] ?? '');
  }
  if (bytes.length - whole === 1) {
    out += PAIRS[(bytes[whole] ?? 0) << 4] ?? '';
  } else if (bytes.length - whole === 2) {
    const n = ((bytes[whole] ?? 0) << 10) | ((bytes[whole + 1] ?? 0) << 2);
    out += (PAIRS[n >>> 6] ?? '') + URL_ALPHABET.charAt(n & 63);
  }
  return out;
}

function bytesOf(binary: string): Uint8Array {
  const out = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) out[index] = binary.charCodeAt(index);
  return out;
}

/**
 * Decodes unpadded base64 exactly: no padding, no non-zero trailing bits (so every byte string has
 * exactly one accepted text); `alphabet` is the text's own, already checked by the caller's pattern.
 */
function decodeUnpadded(text: string, alphabet: string, decode: () => Uint8Array): Uint8Array | undefined {
  const remainder = text.length % 4;
  if (remainder === 1) return undefined;
  if (remainder !== 0) {
    const last = alphabet.indexOf(text.charAt(text.length - 1));
    if ((last & (remainder === 2 ? 0x0f : 0x03)) !== 0) return undefined;
  }
  return decode();
}

/** Decodes base64url known to be canonical, through the Web-standard `atob`. */
export function decodeBase64urlWeb(text: string): Uint8Array {
  return bytesOf(atob(text.replace(/-/g, '+').replace(/_/g, '/')));
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const BASE64 = /^[A-Za-z0-9+/]*$/;
const STD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Decodes unpadded base64url strictly (no other character, no padding, no non-zero trailing bits);
 * `decode` turns the checked text into bytes (the primitives' own, `atob` by default).
 */
export function fromBase64urlStrict(
  text: string,
  decode: (checked: string) => Uint8Array = decodeBase64urlWeb,
): Uint8Array | undefined {
  if (!BASE64URL.test(text)) return undefined;
  return decodeUnpadded(text, URL_ALPHABET, () => decode(text));
}

/** Decodes standard base64 with optional correct padding strictly. */
export function fromBase64Strict(text: string): Uint8Array | undefined {
  const padding = /={1,2}$/.exec(text)?.[0].length ?? 0;
  if (padding > 0 && text.length % 4 !== 0) return undefined;
  const body = text.slice(0, text.length - padding);
  if (!BASE64.test(body) || (padding > 0 && body.length % 4 === 0)) return undefined;
  return decodeUnpadded(body, STD_ALPHABET, () => bytesOf(atob(body)));
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/** Decodes an even-length hex string, or returns undefined. */
export function fromHex(text: string): Uint8Array | undefined {
  if (!HEX.test(text)) return undefined;
  const out = new Uint8Array(text.length / 2);
  for (let index = 0; index < out.length; index++) out[index] = parseInt(text.slice(index * 2, index * 2 + 2), 16);
  return out;
}

/** `bytes` as lowercase hex, two digits a byte. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Bytes of `text` in UTF-8, without encoding it. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    bytes +=
      unit < 0x80
        ? 1
        : unit < 0x800
          ? 2
          : unit >= 0xd800 && unit <= 0xdbff
            ? 4
            : unit >= 0xdc00 && unit <= 0xdfff
              ? 0
              : 3;
  }
  return bytes;
}

/** A character past U+00FF: a JavaScript heap keeps the whole string two bytes a character. */
const WIDE = /[\u0100-\uffff]/;

/**
 * What `text` costs held in this process, the text part of the "held bytes" measure: the larger of
 * its UTF-8 size and what it takes in a JavaScript heap (one byte a character, two when any
 * character is past U+00FF), so neither non-Latin text nor Latin text made wide by one character
 * passes a budget.
 */
export function heldTextBytes(text: string): number {
  return Math.max(utf8Bytes(text), WIDE.test(text) ? text.length * 2 : text.length);
}

/**
 * The size of `value` as JSON, in UTF-8 bytes: 0 for no value (`undefined`), and `Infinity` for
 * one JSON cannot write (nested too deep for the stack, cyclic), so every bound refuses it.
 */
export function jsonBytes(value: unknown): number {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  return json === undefined ? 0 : utf8(json).length;
}
