/**
 * URL-mode questions: the checks a URL passes before it is sent to anyone (https, no credentials,
 * no control characters), and the random per-call default elicitation ids.
 */
import { McpResolveError } from '../errors.js';
import { utf8 } from '../state/bytes.js';
import { defaultPrimitives } from '../state/primitives.js';

/** Hosts a page may be served from over plain `http:` (development on this machine only). */
export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** C0 and C1 control characters (a line break or tab included). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it finds
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

function invalidUrl(message: string): McpResolveError {
  return new McpResolveError('invalid_declaration', message, { data: { kind: 'question', field: 'url' } });
}

/** `url` as sent (its `href`), or the `invalid_declaration` naming what is wrong with it and the fix. */
export function checkedUrl(url: string): string {
  if (CONTROL_CHARACTERS.test(url)) {
    throw invalidUrl(
      `elicitUrl(): the URL contains a control character (got ${JSON.stringify(url)}). Remove line breaks, tabs and other control characters from it.`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidUrl(`elicitUrl(): '${url}' is not an absolute URL.`);
  }
  const secure = parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname));
  if (!secure) {
    throw invalidUrl(
      parsed.protocol === 'http:'
        ? `elicitUrl(): the URL must use https (got 'http:' for host '${parsed.hostname}'). Serve the page over https; plain http is allowed only for localhost, 127.0.0.1 and [::1] during development.`
        : `elicitUrl(): the URL must use https (got '${parsed.protocol}'). Send the person to an https page your server serves.`,
    );
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw invalidUrl(
      `elicitUrl(): the URL carries a user name or password (got '${parsed.protocol}//…@${parsed.host}'). Leave credentials out of the URL: the page signs the person in itself.`,
    );
  }
  return parsed.href;
}

/**
 * The default elicitation id of the URL question under `key` in a call whose random seed is `seed`:
 * 22 base64url characters of SHA-256 (node:crypto where present, else @noble/hashes: same bytes).
 * The seed is random per call and kept with the call (sealed state, task), so the id is stable
 * across its rounds, differs for every call, and cannot be computed from the question.
 */
export function defaultElicitationId(seed: string, key: string): string {
  const primitives = defaultPrimitives();
  return primitives.encodeBase64url(primitives.sha256([utf8(`${seed}\n${key}`)])).slice(0, 22);
}

/** A fresh random seed for a call's default elicitation ids (Web Crypto). */
export function newElicitationSeed(): string {
  return crypto.randomUUID();
}
