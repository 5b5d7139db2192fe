/**
 * What a token is bound to: the originating request, the audience and the principal.
 *
 * Every field is length-prefixed before hashing, so no two different bindings share an encoding.
 * Strings are encoded as UTF-16LE code units, which is lossless even for lone surrogates; the
 * arguments are canonicalised with RFC 8785 (JCS) and hashed as UTF-8.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import canonicalize from 'canonicalize';
import type { MultiRoundMethod } from '../protocol.js';
import { isMultiRoundMethod } from '../protocol.js';

import { concatBytes, lengthPrefix, utf16le, utf8 } from './bytes.js';
import type { CryptoPrimitives, HmacKey } from './primitives.js';

/** The request a sealed `requestState` belongs to; the verifier recomputes it from the inbound request. */
export interface RequestBinding {
  /** The MCP method that minted (and may redeem) the token. */
  method: MultiRoundMethod;
  /** The tool name, prompt name or resource URI, compared exactly. */
  target: string;
  /** The request's arguments as received; digested in RFC 8785 canonical form (absent counts as `{}`). */
  arguments: unknown;
  /** The resolved principal (see {@link principalFrom}); bound salted, never logged, never in clear. */
  principal: string | undefined;
}

/** A binding checked and reduced to what the token formats need. */
export interface BindingDigest {
  /** SHA-256 over method, target and canonical arguments. */
  readonly request: Uint8Array;
  /** The principal string, or undefined when the request carries none. */
  readonly principal: string | undefined;
}

/** The outcome of {@link digestBinding}: a digest, or why the binding itself is unusable. */
export type BindingDigestResult =
  | { readonly ok: true; readonly digest: BindingDigest }
  | { readonly ok: false; readonly reason: 'invalid_binding' | 'arguments_not_canonical' };

function prefixed(bytes: Uint8Array): readonly Uint8Array[] {
  return [lengthPrefix(bytes.length), bytes];
}

const REQUEST_LABEL = prefixed(utf16le('mcp-resolve request binding v1'));

const REQUEST_CACHE_ENTRIES = 1024;
const MAX_CACHED_REQUEST_CHARS = 4096;
/**
 * Request digests by method, canonical arguments and target, for the last requests seen (a bounded
 * map of short keys): a round's open and the seal of its next round digest the same request once.
 * The digest is the same on every primitives (the same SHA-256), so one map serves all.
 */
const requestDigests = new Map<string, Uint8Array>();

// Cache: what each binding object digested to; a WeakMap, so an entry goes with its request. A round
// opens its state and seals the next with the same binding, so its arguments are canonicalised
// once. A binding is digested as it is when first used (the request as received); later changes to
// the object are not seen.
const digestedBindings = new WeakMap<object, BindingDigestResult>();

/**
 * Checks a binding's shape at run time and digests method, target and canonical arguments
 * (read-only result), once per binding object.
 */
export function digestBinding(binding: unknown, primitives: CryptoPrimitives): BindingDigestResult {
  if (typeof binding !== 'object' || binding === null) return { ok: false, reason: 'invalid_binding' };
  let digested = digestedBindings.get(binding);
  if (digested === undefined) {
    digested = digestFresh(binding, primitives);
    digestedBindings.set(binding, digested);
  }
  return digested;
}

function digestFresh(binding: object, primitives: CryptoPrimitives): BindingDigestResult {
  const method = 'method' in binding ? binding.method : undefined;
  const target = 'target' in binding ? binding.target : undefined;
  const principal = 'principal' in binding ? binding.principal : undefined;
  const args = 'arguments' in binding ? binding.arguments : undefined;
  if (typeof method !== 'string' || !isMultiRoundMethod(method) || typeof target !== 'string') {
    return { ok: false, reason: 'invalid_binding' };
  }
  if (principal !== undefined && typeof principal !== 'string') return { ok: false, reason: 'invalid_binding' };
  let canonical: string | undefined;
  try {
    canonical = canonicalize(args === undefined ? {} : args);
  } catch {
    return { ok: false, reason: 'arguments_not_canonical' };
  }
  if (canonical === undefined) return { ok: false, reason: 'arguments_not_canonical' };
  // Unambiguous: a method has no NUL and canonical JSON escapes every control character.
  const key = `${method}\0${canonical}\0${target}`;
  let request = requestDigests.get(key);
  if (request === undefined) {
    request = primitives.sha256([
      ...REQUEST_LABEL,
      ...prefixed(utf16le(method)),
      ...prefixed(utf16le(target)),
      ...prefixed(utf8(canonical)),
    ]);
    if (key.length <= MAX_CACHED_REQUEST_CHARS) {
      if (requestDigests.size >= REQUEST_CACHE_ENTRIES) requestDigests.clear();
      requestDigests.set(key, request);
    }
  }
  return { ok: true, digest: { request, principal } };
}

/** SHA-256 of the audience, computed once per sealer. */
export function digestAudience(audience: string, primitives: CryptoPrimitives): Uint8Array {
  return primitives.sha256([...prefixed(utf16le('mcp-resolve audience v1')), ...prefixed(utf16le(audience))]);
}

const ABSENT = Uint8Array.of(0);
const PRESENT = Uint8Array.of(1);
const SALTED_CACHE_ENTRIES = 1024;
// Cache: each HMAC key's MACs of the last principals seen (at most SALTED_CACHE_ENTRIES); a WeakMap,
// so a key's entries go with the key.
const saltedCaches = new WeakMap<HmacKey, Map<string, Uint8Array>>();

/**
 * The principal as it enters associated data: `0x00`, or `0x01` followed by HMAC-SHA256(key, principal).
 * Remembered per key for the last principals seen (a bounded map), so a user's rounds MAC it once.
 */
export function saltedPrincipal(mac: HmacKey, principal: string | undefined): Uint8Array {
  if (principal === undefined) return ABSENT;
  let cache = saltedCaches.get(mac);
  if (cache === undefined) {
    cache = new Map();
    saltedCaches.set(mac, cache);
  }
  let salted = cache.get(principal);
  if (salted === undefined) {
    salted = concatBytes([PRESENT, mac([utf16le(principal)])]);
    if (cache.size >= SALTED_CACHE_ENTRIES) cache.clear();
    cache.set(principal, salted);
  }
  return salted;
}

/** The principal as raw bytes for a per-token salted MAC: `0x00`, or `0x01` followed by its UTF-16LE code units. */
export function principalBytes(principal: string | undefined): Uint8Array {
  if (principal === undefined) return ABSENT;
  return concatBytes([PRESENT, utf16le(principal)]);
}

/**
 * Derives the default principal from the SDK's validated `AuthInfo`: client id plus, when present
 * as strings in `extra`, issuer (`iss`) and subject (`sub`), as a stable JSON array string.
 */
export function principalFrom(authInfo: AuthInfo | undefined): string | undefined {
  if (authInfo === undefined || authInfo === null) return undefined;
  const iss = authInfo.extra?.['iss'];
  const sub = authInfo.extra?.['sub'];
  return JSON.stringify([
    authInfo.clientId,
    typeof iss === 'string' ? iss : null,
    typeof sub === 'string' ? sub : null,
  ]);
}
