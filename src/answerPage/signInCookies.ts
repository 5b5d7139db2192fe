/**
 * The two cookies of the answer page's sign-in, each a base64url JSON payload and its HMAC under a
 * subkey of the page's form key (HKDF, one label per cookie, bound to the provider, the client and
 * the pages' path): the session (the person's issuer and subject, until it expires) and the flow
 * between the redirect to the provider and its callback (state, nonce, PKCE verifier and the page to
 * return to, for ten minutes). Neither is secret from the browser holding it; neither can be changed,
 * kept past its expiry or carried to another server or provider. Values longer than 2048 characters
 * are ignored unread.
 */
import { equalBytes, fromBase64urlStrict, toBase64url, utf8 } from '../state/bytes.js';
import { defaultPrimitives } from '../state/primitives.js';
import { cookieValue } from './formToken.js';

/** The session cookie: who signed in. */
export const SESSION_COOKIE = 'mcp-resolve-signin';
/** The flow cookie: one sign-in under way. */
export const FLOW_COOKIE = 'mcp-resolve-signin-flow';
/** How long a sign-in lasts on the pages, in ms (the provider's own session usually outlasts it). */
export const SESSION_MS = 3_600_000;
/** How long the person has at the provider before the callback is refused, in ms. */
export const FLOW_MS = 600_000;

const MAX_COOKIE_CHARS = 2048;

/** A person signed in at the provider: its issuer and their subject there. */
export interface SignedInPerson {
  readonly iss: string;
  readonly sub: string;
}

/** A sign-in under way: what the callback checks, and the page it returns to. */
export interface SignInFlow {
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
  readonly pageId: string;
}

/** What the cookies are bound to besides the key. */
export interface SignInScope {
  readonly issuer: string;
  readonly clientId: string;
  /** The pages' path (the session cookie's `Path`). */
  readonly path: string;
  /** The callback's path (the flow cookie's `Path`). */
  readonly callbackPath: string;
}

/** Mints (`Set-Cookie` values) and reads the sign-in cookies. */
export interface SignInCookies {
  session(person: SignedInPerson, secure: boolean, now?: number): string;
  person(cookieHeader: string | null, now?: number): SignedInPerson | undefined;
  flow(flow: SignInFlow, secure: boolean, now?: number): string;
  flowOf(cookieHeader: string | null, now?: number): SignInFlow | undefined;
  /** The `Set-Cookie` value that removes the flow cookie. */
  clearFlow(secure: boolean): string;
}

const cookieCrypto = defaultPrimitives();
const SIGN_IN_SALT = utf8('mcp-resolve/answer-page/sign-in/v1');

function strings(value: unknown, length: number): readonly string[] | undefined {
  return Array.isArray(value) && value.length === length && value.every((item) => typeof item === 'string')
    ? value
    : undefined;
}

/** The sign-in cookies keyed by a subkey of `formKey` and bound to `scope`. */
export function createSignInCookies(formKey: Uint8Array, scope: SignInScope): SignInCookies {
  const keyed = (label: string) => {
    const mac = cookieCrypto.hmacKey(cookieCrypto.hkdf(formKey, SIGN_IN_SALT, label, 32));
    const bound = JSON.stringify([scope.issuer, scope.clientId, scope.path]);
    const tag = (payload: string): Uint8Array => utf8(toBase64url(mac([utf8(`${bound}\n${payload}`)])));
    return {
      seal(fields: readonly string[], expiresAt: number): string {
        const payload = toBase64url(utf8(JSON.stringify([...fields, String(expiresAt)])));
        return `${payload}.${new TextDecoder().decode(tag(payload))}`;
      },
      open(value: string | undefined, length: number, now: number): readonly string[] | undefined {
        if (value === undefined || value.length > MAX_COOKIE_CHARS) return undefined;
        const dot = value.indexOf('.');
        const payload = value.slice(0, dot);
        if (dot < 0 || !equalBytes(tag(payload), utf8(value.slice(dot + 1)))) return undefined;
        const bytes = fromBase64urlStrict(payload);
        if (bytes === undefined) return undefined;
        let fields: readonly string[] | undefined;
        try {
          fields = strings(JSON.parse(new TextDecoder().decode(bytes)), length + 1);
        } catch {
          return undefined;
        }
        return fields !== undefined && Number(fields[length]) > now ? fields.slice(0, length) : undefined;
      },
    };
  };
  const sessions = keyed('session');
  const flows = keyed('flow');
  const attributes = (path: string, maxAgeMs: number, secure: boolean) =>
    `; Path=${path}; Max-Age=${maxAgeMs / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  return {
    session({ iss, sub }, secure, now = Date.now()) {
      const value = sessions.seal([iss, sub], now + SESSION_MS);
      return `${SESSION_COOKIE}=${value}${attributes(scope.path, SESSION_MS, secure)}`;
    },
    person(cookieHeader, now = Date.now()) {
      const fields = sessions.open(cookieValue(cookieHeader, SESSION_COOKIE), 2, now);
      return fields === undefined ? undefined : { iss: fields[0]!, sub: fields[1]! };
    },
    flow({ state, nonce, verifier, pageId }, secure, now = Date.now()) {
      const value = flows.seal([state, nonce, verifier, pageId], now + FLOW_MS);
      return `${FLOW_COOKIE}=${value}${attributes(scope.callbackPath, FLOW_MS, secure)}`;
    },
    flowOf(cookieHeader, now = Date.now()) {
      const fields = flows.open(cookieValue(cookieHeader, FLOW_COOKIE), 4, now);
      return fields === undefined
        ? undefined
        : { state: fields[0]!, nonce: fields[1]!, verifier: fields[2]!, pageId: fields[3]! };
    },
    clearFlow(secure) {
      return `${FLOW_COOKIE}=${attributes(scope.callbackPath, 0, secure)}`;
    },
  };
}
