/**
 * The refund desk's logins for the answer-page tests behind `authenticate`: OAuth bearer tokens of
 * the desk app for MCP (one per person, told apart by subject), and the site's own session cookie
 * for the page, read by `browserUser` into the person's `AuthInfo` (under the site's client id).
 */
import type { AuthInfo, OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';

/** The name of the site's session cookie. */
export const SESSION_COOKIE = 'desk_session';

/** Validates the desk app's bearer tokens: `alice-token` and `bob-token`. */
export const verifier: OAuthTokenVerifier = {
  verifyAccessToken(token: string): Promise<AuthInfo> {
    const subject = { 'alice-token': 'alice', 'bob-token': 'bob' }[token];
    if (subject === undefined) return Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, 'unknown token'));
    return Promise.resolve({
      token,
      clientId: 'desk-app',
      scopes: [],
      expiresAt: 4_102_444_800,
      extra: { sub: subject },
    });
  },
};

/** The browser's signed-in person, from the site's session cookie (its value is the person's subject). */
export function browserUser(request: Request): AuthInfo | undefined {
  const pattern = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=(\\w+)`);
  const session = pattern.exec(request.headers.get('cookie') ?? '')?.[1];
  return session === undefined
    ? undefined
    : { token: session, clientId: 'desk-site', scopes: [], extra: { sub: session } };
}
