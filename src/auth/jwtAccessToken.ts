/** JWT access tokens checked with jose against the issuer's published keys (`jwks_uri`). */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import type * as Jose from 'jose';

import { loadPeer, peerMissing } from '../peer.js';
import { fetchJson } from './boundedFetch.js';
import { tokenAuthInfo } from './tokenClaims.js';

/** Asymmetric signatures only: never `none`, never an HMAC a client could forge with a shared secret. */
const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** How long fetched keys are kept, and the least time between two fetches for an unknown key id. */
const KEYS_MAX_AGE_MS = 600_000;
const KEYS_COOLDOWN_MS = 30_000;

/** jose, or the `invalid_usage` error naming `npm install jose` (the one place the peer is loaded). */
export function loadJose(api: string): Promise<typeof Jose> {
  return loadPeer('jose', api, () => import('jose').catch(peerMissing));
}

/** Checks JWT access tokens of one issuer for one audience at a time; keys come from `jwksUri()` once. */
export function jwtAccessTokens(
  api: string,
  issuer: string,
  jwksUri: () => Promise<string>,
  timeoutMs: number,
): (token: string, resource: string) => Promise<AuthInfo> {
  let keys: Promise<{ jose: typeof Jose; set: ReturnType<typeof Jose.createRemoteJWKSet> }> | undefined;
  const keySet = () => {
    keys ??= (async () => {
      const [jose, uri] = await Promise.all([loadJose(api), jwksUri()]);
      const set = jose.createRemoteJWKSet(new URL(uri), {
        timeoutDuration: timeoutMs,
        cacheMaxAge: KEYS_MAX_AGE_MS,
        cooldownDuration: KEYS_COOLDOWN_MS,
        // The key set is read like the metadata: bounded in bytes as well as time.
        [jose.customFetch]: async (url: string, init: RequestInit) =>
          Response.json(await fetchJson(url, { headers: init.headers ?? {} }, timeoutMs)),
      });
      return { jose, set };
    })().catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
  return async (token, resource) => {
    const { jose, set } = await keySet();
    let payload: Jose.JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, set, {
        issuer,
        audience: resource,
        algorithms: ALGORITHMS,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      // Keys that cannot be fetched are the server's trouble; anything else is the token's.
      if (error instanceof jose.errors.JWKSTimeout || !(error instanceof jose.errors.JOSEError)) throw error;
      throw new OAuthError(OAuthErrorCode.InvalidToken, 'The access token is not valid for this resource');
    }
    return tokenAuthInfo(token, payload, resource);
  };
}
