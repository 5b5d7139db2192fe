/**
 * The key ring: decoding and validating key material, and deriving per-key subkeys once.
 *
 * Each raw key (≥ 32 bytes) is expanded with HKDF-SHA256 into an AES-256-GCM key, an HMAC key for
 * the principal, an HMAC key for mismatch hints and a 4-byte key id. The first key seals; every
 * key opens.
 */
import { hkdfSync, randomBytes } from 'node:crypto';

import { McpResolveError } from '../errors.js';

/** The environment variable a fleet sets to share keys: comma-separated hex or base64 keys. */
export const REQUEST_STATE_KEYS_ENV = 'MCP_REQUEST_STATE_KEYS';

/** The minimum length of a sealing key in bytes. */
export const MIN_KEY_BYTES = 32;

const HKDF_SALT = Buffer.from('mcp-resolve/request-state/v1', 'utf8');
const GENERATE_HINT = "Generate a key with: node -e \"console.log(require('crypto').randomBytes(32).toString('hex'))\"";

/** Subkeys derived from one raw key; never logged. */
export interface DerivedKey {
  /** The 4-byte key id (big-endian) carried in clear in every token. */
  readonly id: number;
  /** The AES-256-GCM key. */
  readonly encryptionKey: Buffer;
  /** The HMAC-SHA256 key that salts the principal before it enters the associated data. */
  readonly principalKey: Buffer;
  /** The HMAC-SHA256 key of the 2-byte mismatch hints. */
  readonly hintKey: Buffer;
}

/** A validated ring: the sealing key plus every key that may open, by key id. */
export interface KeyRing {
  /** The key new tokens are sealed with (the first one). */
  readonly sealing: DerivedKey;
  /** Every key of the ring, by key id. */
  readonly byId: ReadonlyMap<number, DerivedKey>;
}

function invalidKeys(message: string): McpResolveError {
  return new McpResolveError('invalid_keys', `createSealer(): ${message}`);
}

/** Describes a value's type for an error message without ever printing the value. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Decodes a hex, base64 or base64url key string exactly (hex tried first), or returns undefined. */
function decodeKeyString(text: string): Buffer | undefined {
  if (text.length % 2 === 0 && HEX.test(text)) return Buffer.from(text, 'hex');
  if (BASE64.test(text)) {
    if (text.includes('=') && text.length % 4 !== 0) return undefined;
    const body = text.replace(/=+$/, '');
    const bytes = Buffer.from(body, 'base64');
    return bytes.toString('base64').replace(/=+$/, '') === body ? bytes : undefined;
  }
  if (BASE64URL.test(text)) {
    const bytes = Buffer.from(text, 'base64url');
    return bytes.toString('base64url') === text ? bytes : undefined;
  }
  return undefined;
}

function decodeEntry(entry: unknown, label: string): Buffer {
  let bytes: Buffer;
  if (typeof entry === 'string') {
    if (entry.length === 0)
      throw invalidKeys(`${label} is an empty string; remove it or put a key there. ${GENERATE_HINT}`);
    const decoded = decodeKeyString(entry);
    if (decoded === undefined) {
      throw invalidKeys(
        `${label} is neither hex nor base64 (a string of ${entry.length} characters). ${GENERATE_HINT}`,
      );
    }
    bytes = decoded;
  } else if (entry instanceof Uint8Array) {
    bytes = Buffer.from(entry); // a copy: later changes to the caller's array do not change the ring
  } else {
    throw invalidKeys(
      `${label} must be a hex or base64 string or a Uint8Array (got ${describeType(entry)}). ${GENERATE_HINT}`,
    );
  }
  if (bytes.length < MIN_KEY_BYTES) {
    throw invalidKeys(
      `${label} is ${bytes.length} bytes; every key must be at least ${MIN_KEY_BYTES} bytes. ${GENERATE_HINT}`,
    );
  }
  return bytes;
}

function expand(ikm: Buffer, info: string, length: number): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, HKDF_SALT, info, length));
}

/** Derives the subkeys of one raw key with HKDF-SHA256 (one salt, one `info` label per subkey). */
function deriveKey(ikm: Buffer): DerivedKey {
  return {
    id: expand(ikm, 'key id', 4).readUInt32BE(0),
    encryptionKey: expand(ikm, 'aes-256-gcm key', 32),
    principalKey: expand(ikm, 'principal hmac key', 32),
    hintKey: expand(ikm, 'mismatch hint hmac key', 32),
  };
}

function buildRing(raw: readonly Buffer[], labels: readonly string[]): KeyRing {
  const byId = new Map<number, DerivedKey>();
  const labelById = new Map<number, string>();
  let sealing: DerivedKey | undefined;
  raw.forEach((ikm, index) => {
    const label = labels[index] ?? `key ${index}`;
    const duplicateOf = raw.findIndex((other, otherIndex) => otherIndex < index && other.equals(ikm));
    if (duplicateOf !== -1) {
      throw invalidKeys(
        `${label} repeats ${labels[duplicateOf] ?? `key ${duplicateOf}`}; every key in the ring must be distinct.`,
      );
    }
    const derived = deriveKey(ikm);
    const clash = labelById.get(derived.id);
    if (clash !== undefined) {
      throw invalidKeys(
        `${label} and ${clash} derive the same key id; replace ${label} with a freshly generated key. ${GENERATE_HINT}`,
      );
    }
    byId.set(derived.id, derived);
    labelById.set(derived.id, label);
    sealing ??= derived;
  });
  if (sealing === undefined) throw invalidKeys('the key ring is empty.');
  return { sealing, byId };
}

/** Validates `options.keys` and derives its ring, throwing `invalid_keys` with an exact message. */
export function keyRingFromOption(keys: unknown): KeyRing {
  if (!Array.isArray(keys)) {
    throw invalidKeys(
      `options.keys must be an array of keys (got ${describeType(keys)}); wrap a single key in an array: keys: [key].`,
    );
  }
  const entries: readonly unknown[] = keys;
  if (entries.length === 0) {
    throw invalidKeys(
      `options.keys is empty; pass at least one key of ${MIN_KEY_BYTES} bytes or more, or omit keys for a random per-process key. ${GENERATE_HINT}`,
    );
  }
  const labels = entries.map((_, index) => `options.keys[${index}]`);
  return buildRing(
    entries.map((entry, index) => decodeEntry(entry, labels[index] ?? '')),
    labels,
  );
}

/** Parses the value of `MCP_REQUEST_STATE_KEYS` (comma-separated, blanks trimmed) into a ring. */
export function keyRingFromEnv(value: string): KeyRing {
  if (value.trim().length === 0) {
    throw invalidKeys(
      `${REQUEST_STATE_KEYS_ENV} is set but empty; set it to comma-separated keys (hex or base64) of ${MIN_KEY_BYTES} bytes or more, or unset it for a random per-process key. ${GENERATE_HINT}`,
    );
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const labels = entries.map((_, index) => `${REQUEST_STATE_KEYS_ENV}[${index}]`);
  return buildRing(
    entries.map((entry, index) => decodeEntry(entry, labels[index] ?? '')),
    labels,
  );
}

let processRing: KeyRing | undefined;

/** The ring of the one random key this process uses when no key is configured (derived once). */
export function processKeyRing(): KeyRing {
  processRing ??= buildRing([randomBytes(MIN_KEY_BYTES)], ['the per-process key']);
  return processRing;
}
