/**
 * Who may answer a page: the page is bound to the principal of the MCP request that asked, and the
 * browser's user (from `browserUser`) is turned into a principal exactly as an MCP request's
 * `AuthInfo` is (`principalFrom`). A principal that names a subject (`extra.sub`) is a person: any
 * `AuthInfo` of the same issuer and subject answers for them, whatever OAuth client id it carries,
 * since the site's own login knows the person, not the app that asked through MCP.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';

import { principalFrom } from '../state/binding.js';

/**
 * The browser's user as `browserUser` gives it: the `AuthInfo` your MCP authentication returns for
 * that person, or (for a custom `principal` option) the principal string itself, or `undefined` for
 * nobody signed in.
 */
export type BrowserUser = AuthInfo | string | undefined;

/** The issuer and subject of a `principalFrom` encoding that names a subject, else `undefined`. */
function personOf(principal: string): readonly [unknown, string] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(principal);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || typeof parsed[2] !== 'string') return undefined;
  return [parsed[1], parsed[2]];
}

/** Whether `user` may answer a page bound to `principal`. */
export function answersFor(principal: string, user: BrowserUser): boolean {
  if (user === undefined) return false;
  const theirs = typeof user === 'string' ? user : principalFrom(user);
  if (theirs === undefined) return false;
  if (theirs === principal) return true;
  const asked = personOf(principal);
  const answering = personOf(theirs);
  return asked !== undefined && answering !== undefined && asked[0] === answering[0] && asked[1] === answering[1];
}
