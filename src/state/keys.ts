/**
 * The key ring: decoding and validating key material, and deriving per-key subkeys once.
 *
 * Each raw key (≥ 32 bytes) is expanded with HKDF-SHA256 into an AES-256-GCM key, an HMAC key for
 * the principal, an HMAC key for mismatch hints, an HMAC key for tickets and a 4-byte key id. The first key seals; every
 * key opens.
 */
import type { McpResolveErrorData } from '../errors.js';
import { McpResolveError } from '../errors.js';
import { equalBytes, fromBase64Strict, fromBase64urlStrict, fromHex, readUint32, utf8 } from './bytes.js';
import type { AesGcmKey, CryptoPrimitives, HmacKey } from './primitives.js';

/** The environment variable a fleet sets to share keys: comma-separated hex or base64 keys. */
export const REQUEST_STATE_KEYS_ENV = 'MCP_REQUEST_STATE_KEYS';

/** The minimum length of a sealing key in bytes. */
export const MIN_KEY_BYTES = 32;

const HKDF_SALT = utf8('mcp-resolve/request-state/v1');
/** How to make a key, as every key message ends. */
export const GENERATE_HINT =
  "Generate a key with: node -e \"console.log(require('crypto').randomBytes(32).toString('hex'))\"";

/** Subkeys derived from one raw key and prepared for use once; never logged. */
export interface DerivedKey {
  /** The 4-byte key id (big-endian) carried in clear in every token. */
  readonly id: number;
  /** The AES-256-GCM key. */
  readonly aead: AesGcmKey;
  /** HMAC-SHA256 that salts the principal before it enters the associated data. */
  readonly principalMac: HmacKey;
  /** HMAC-SHA256 of the mismatch hints and of the header proof that authenticates them. */
  readonly hintMac: HmacKey;
  /** HMAC-SHA256 of the tickets the server mints (`state/tickets.ts`). */
  readonly ticketMac: HmacKey;
}

/** A validated ring: the sealing key plus every key that may open, by key id. */
export interface KeyRing {
  /** The key new tokens are sealed with (the first one). */
  readonly sealing: DerivedKey;
  /** Every key of the ring, by key id. */
  readonly byId: ReadonlyMap<number, DerivedKey>;
}

/** Where keys come from, as messages and `invalid_keys` data name it. */
type KeySource = McpResolveErrorData['invalid_keys']['source'];

/** One key of a list: its source and position (`options.keys[1]` in messages). */
interface KeyAt {
  readonly source: KeySource;
  readonly index: number;
}

function keyLabel({ source, index }: KeyAt): string {
  return `${source}[${index}]`;
}

function invalidKeys(message: string, data: McpResolveErrorData['invalid_keys']): McpResolveError {
  return new McpResolveError('invalid_keys', `createSealer(): ${message}`, { data });
}

/** Describes a value's type for an error message without ever printing the value. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** Decodes a hex, base64 or base64url key string exactly (hex tried first), or returns undefined. */
function decodeKeyString(text: string): Uint8Array | undefined {
  return fromHex(text) ?? fromBase64Strict(text) ?? fromBase64urlStrict(text);
}

function decodeEntry(entry: unknown, at: KeyAt): Uint8Array {
  const label = keyLabel(at);
  let bytes: Uint8Array;
  if (typeof entry === 'string') {
    if (entry.length === 0)
      throw invalidKeys(`${label} is an empty string; remove it or put a key there. ${GENERATE_HINT}`, at);
    const decoded = decodeKeyString(entry);
    if (decoded === undefined) {
      throw invalidKeys(
        `${label} is neither hex nor base64 (a string of ${entry.length} characters). ${GENERATE_HINT}`,
        at,
      );
    }
    bytes = decoded;
  } else if (entry instanceof Uint8Array) {
    bytes = Uint8Array.from(entry); // a copy: later changes to the caller's array do not change the ring
  } else {
    throw invalidKeys(
      `${label} must be a hex or base64 string or a Uint8Array (got ${describeType(entry)}). ${GENERATE_HINT}`,
      at,
    );
  }
  if (bytes.length < MIN_KEY_BYTES) {
    throw invalidKeys(
      `${label} is ${bytes.length} bytes; every key must be at least ${MIN_KEY_BYTES} bytes. ${GENERATE_HINT}`,
      at,
    );
  }
  return bytes;
}

/** Derives the subkeys of one raw key with HKDF-SHA256 (one salt, one `info` label per subkey) and prepares them. */
function deriveKey(ikm: Uint8Array, primitives: CryptoPrimitives): DerivedKey {
  const expand = (info: string, length: number) => primitives.hkdf(ikm, HKDF_SALT, info, length);
  return {
    id: readUint32(expand('key id', 4), 0),
    aead: primitives.aesGcmKey(expand('aes-256-gcm key', 32)),
    principalMac: primitives.hmacKey(expand('principal hmac key', 32)),
    hintMac: primitives.hmacKey(expand('mismatch hint hmac key', 32)),
    ticketMac: primitives.hmacKey(expand('ticket hmac key', 32)),
  };
}

/** Decodes `entries` (from `source`) and derives the ring; throws `invalid_keys` naming the key at fault. */
function buildRing(entries: readonly unknown[], source: KeySource, primitives: CryptoPrimitives): KeyRing {
  const raw = entries.map((entry, index) => decodeEntry(entry, { source, index }));
  const byId = new Map<number, DerivedKey>();
  const labelById = new Map<number, string>();
  let sealing: DerivedKey | undefined;
  raw.forEach((ikm, index) => {
    const at = { source, index };
    const label = keyLabel(at);
    const duplicateOf = raw.findIndex((other, otherIndex) => otherIndex < index && equalBytes(other, ikm));
    if (duplicateOf !== -1) {
      throw invalidKeys(
        `${label} repeats ${keyLabel({ source, index: duplicateOf })}; every key in the ring must be distinct.`,
        at,
      );
    }
    const derived = deriveKey(ikm, primitives);
    const clash = labelById.get(derived.id);
    if (clash !== undefined) {
      throw invalidKeys(
        `${label} and ${clash} derive the same key id; replace ${label} with a freshly generated key. ${GENERATE_HINT}`,
        at,
      );
    }
    byId.set(derived.id, derived);
    labelById.set(derived.id, label);
    sealing ??= derived;
  });
  if (sealing === undefined) throw invalidKeys('the key ring is empty.', { source });
  return { sealing, byId };
}

/** Validates `options.keys` and derives its ring, throwing `invalid_keys` with an exact message. */
export function keyRingFromOption(keys: unknown, primitives: CryptoPrimitives): KeyRing {
  if (!Array.isArray(keys)) {
    throw invalidKeys(
      `options.keys must be an array of keys (got ${describeType(keys)}); wrap a single key in an array: keys: [key].`,
      { source: 'options.keys' },
    );
  }
  const entries: readonly unknown[] = keys;
  if (entries.length === 0) {
    throw invalidKeys(
      `options.keys is empty; pass at least one key of ${MIN_KEY_BYTES} bytes or more, or omit keys for a random per-process key. ${GENERATE_HINT}`,
      { source: 'options.keys' },
    );
  }
  return buildRing(entries, 'options.keys', primitives);
}

/** Parses the value of `MCP_REQUEST_STATE_KEYS` (comma-separated, blanks trimmed) into a ring. */
export function keyRingFromEnv(value: string, primitives: CryptoPrimitives): KeyRing {
  if (value.trim().length === 0) {
    throw invalidKeys(
      `${REQUEST_STATE_KEYS_ENV} is set but empty; set it to comma-separated keys (hex or base64) of ${MIN_KEY_BYTES} bytes or more, or unset it for a random per-process key. ${GENERATE_HINT}`,
      { source: REQUEST_STATE_KEYS_ENV },
    );
  }
  return buildRing(
    value.split(',').map((entry) => entry.trim()),
    REQUEST_STATE_KEYS_ENV,
    primitives,
  );
}

let processKey: Uint8Array | undefined;
// Cache: the ring derived from the process key for each primitives object (the derivation is
// deterministic: the key is the state); a WeakMap, so an entry goes with its primitives.
const processRings = new WeakMap<CryptoPrimitives, KeyRing>();

/** The ring of the one random key this process (or isolate) uses when no key is configured, derived once per primitives. */
export function processKeyRing(primitives: CryptoPrimitives): KeyRing {
  if (processKey === undefined) {
    processKey = new Uint8Array(MIN_KEY_BYTES);
    primitives.fillRandom(processKey);
  }
  let ring = processRings.get(primitives);
  if (ring === undefined) {
    const sealing = deriveKey(processKey, primitives);
    ring = { sealing, byId: new Map([[sealing.id, sealing]]) };
    processRings.set(primitives, ring);
  }
  return ring;
}
