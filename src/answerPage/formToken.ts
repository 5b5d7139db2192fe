/**
 * Cross-site request forgery protection of the answer page's form: showing the page sets a random
 * nonce in a `SameSite=Strict`, `HttpOnly` cookie scoped to the page's path, and puts in the form
 * an HMAC of the page id and that nonce. A post is taken only when its cookie and form token match
 * each other and the page (another site can neither read the cookie nor compute the token, and a
 * token for one page is worth nothing on another).
 */
import { equalBytes, utf8 } from '../state/bytes.js';
import { defaultPrimitives } from '../state/primitives.js';

/** The cookie holding the form nonce. */
export const FORM_COOKIE = 'mcp-resolve-form';

/** A form's token and the cookie that goes with it. */
export interface MintedFormToken {
  /** The hidden form field's value. */
  readonly token: string;
  /** The `Set-Cookie` header value. */
  readonly setCookie: string;
}

/** Mints and checks form tokens with one key. */
export interface FormTokens {
  /**
   * A form token for page `pageId` (served at `path`) and its cookie: on the nonce the browser's
   * `Cookie` header already holds, so two tabs of one page both post, else on a fresh one.
   */
  mint(pageId: string, path: string, secure: boolean, maxAgeMs: number, cookieHeader?: string | null): MintedFormToken;
  /** Whether `token` and the request's cookie were minted together for `pageId` by this key. */
  verify(pageId: string, cookieHeader: string | null, token: string | null): boolean;
}

const tokenCrypto = defaultPrimitives();

/** A nonce: 22 base64url characters (128 random bits). */
const NONCE = /^[A-Za-z0-9_-]{22}$/;

/** The value of cookie `name` in a `Cookie` header (the first, when sent twice). */
export function cookieValue(header: string | null, name: string): string | undefined {
  if (header === null) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** Form tokens keyed by `secret` (random bytes; every instance of a fleet needs the same). */
export function createFormTokens(secret: Uint8Array): FormTokens {
  const mac = tokenCrypto.hmacKey(secret);
  const tokenOf = (pageId: string, nonce: string): string =>
    tokenCrypto.encodeBase64url(mac([utf8(`mcp-resolve answer page form\n${pageId}\n${nonce}`)]));
  return {
    mint(pageId, path, secure, maxAgeMs, cookieHeader = null) {
      const held = cookieValue(cookieHeader, FORM_COOKIE);
      const nonce =
        held !== undefined && NONCE.test(held)
          ? held
          : tokenCrypto.encodeBase64url(crypto.getRandomValues(new Uint8Array(16)));
      const attributes = [
        `${FORM_COOKIE}=${nonce}`,
        `Path=${path}`,
        `Max-Age=${Math.max(1, Math.floor(maxAgeMs / 1000))}`,
        'HttpOnly',
        'SameSite=Strict',
        ...(secure ? ['Secure'] : []),
      ];
      return { token: tokenOf(pageId, nonce), setCookie: attributes.join('; ') };
    },
    verify(pageId, cookieHeader, token) {
      const nonce = cookieValue(cookieHeader, FORM_COOKIE);
      if (nonce === undefined || nonce === '' || token === null || token === '') return false;
      return equalBytes(utf8(tokenOf(pageId, nonce)), utf8(token));
    },
  };
}
