/** Opaque access tokens checked by RFC 7662 introspection at the authorization server. */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';

import { fetchJson } from './boundedFetch.js';
import type { OAuthIntrospectionOptions } from './options.js';
import { audienceIncludes, tokenAuthInfo } from './tokenClaims.js';

/**
 * Asks the introspection endpoint about each token (as the confidential client `credentials`); a
 * token that is inactive, of another issuer or for another audience is refused.
 */
export function introspectedAccessTokens(
  issuer: string,
  credentials: OAuthIntrospectionOptions,
  endpoint: () => Promise<string>,
  timeoutMs: number,
): (token: string, resource: string) => Promise<AuthInfo> {
  const basic = btoa(`${formEncoded(credentials.clientId)}:${formEncoded(credentials.clientSecret)}`);
  return async (token, resource) => {
    const answer = await fetchJson(
      await endpoint(),
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      },
      timeoutMs,
    );
    const claims = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>) : {};
    const valid =
      claims['active'] === true &&
      (claims['iss'] === undefined || claims['iss'] === issuer) &&
      audienceIncludes(claims['aud'], resource);
    if (!valid) throw new OAuthError(OAuthErrorCode.InvalidToken, 'The access token is not valid for this resource');
    return tokenAuthInfo(token, { iss: issuer, ...claims }, resource);
  };
}

/** RFC 6749, section 2.3.1: client credentials are form-encoded before HTTP Basic. */
function formEncoded(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
