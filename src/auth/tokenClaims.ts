/** An access token's claims (a JWT's payload or an introspection answer) as the SDK's `AuthInfo`. */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';

/**
 * `AuthInfo` for a token already checked for `resource`: scopes from `scope` (or `scp`), client from
 * `client_id` (or `azp`), and `extra.iss` / `extra.sub`, which make the request's principal. A token
 * without `sub` (a client acting for itself) needs a client, which is then the principal.
 */
export function tokenAuthInfo(token: string, claims: Record<string, unknown>, resource: string): AuthInfo {
  const { iss, sub, exp } = claims;
  const client = typeof claims['client_id'] === 'string' ? claims['client_id'] : claims['azp'];
  const clientId = typeof client === 'string' ? client : '';
  if (typeof iss !== 'string' || typeof exp !== 'number' || (typeof sub !== 'string' && clientId === '')) {
    throw new OAuthError(OAuthErrorCode.InvalidToken, 'The access token is not valid for this resource');
  }
  return {
    token,
    clientId,
    scopes: scopesOf(claims),
    expiresAt: exp,
    resource: new URL(resource),
    extra: typeof sub === 'string' ? { iss, sub } : { iss },
  };
}

function scopesOf(claims: Record<string, unknown>): string[] {
  const scope = claims['scope'] ?? claims['scp'];
  if (typeof scope === 'string') return scope.split(' ').filter((entry) => entry !== '');
  return Array.isArray(scope) ? scope.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** Whether an `aud` claim (a string or an array of them) names `resource`. */
export function audienceIncludes(aud: unknown, resource: string): boolean {
  return Array.isArray(aud) ? aud.includes(resource) : aud === resource;
}
