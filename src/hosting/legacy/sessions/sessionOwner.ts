/**
 * Whom a legacy (2025-11-25) session belongs to: the principal that opened it (the library's one
 * notion of a request's principal, `principalFrom` of its validated auth info), kept only as a
 * SHA-256 digest, here and in a fleet's shared store. Every request on the session must carry the
 * same principal; an anonymous session (opened without one, on a server without authentication)
 * serves whoever holds its id, as the 2025-11-25 transport does.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { sha256 } from '@noble/hashes/sha2.js';

import { principalFrom } from '../../../state/binding.js';
import { equalBytes, fromHex, toHex, utf8 } from '../../../state/bytes.js';

/** What the digest is taken over, before the principal: no other digest of the library shares it. */
const OWNER_LABEL = 'mcp-resolve legacy session owner v1\n';

/** The owner digest of a request (64 hex digits), or `undefined` when it carries no principal. */
export function ownerOf(authInfo: AuthInfo | undefined): string | undefined {
  const principal = principalFrom(authInfo);
  if (principal === undefined) return undefined;
  return toHex(sha256(utf8(OWNER_LABEL + principal)));
}

/**
 * Whether a request whose owner digest is `caller` may use a session owned by `owner`: any
 * request on an anonymous session; on an owned one, only a request of the same principal
 * (compared in constant time).
 */
export function mayUse(owner: string | undefined, caller: string | undefined): boolean {
  if (owner === undefined) return true;
  if (caller === undefined) return false;
  const expected = fromHex(owner);
  const actual = fromHex(caller);
  return expected !== undefined && actual !== undefined && equalBytes(expected, actual);
}
