/**
 * A small real authorization server for the `oauth` and page sign-in cases: RS256 keys from jose,
 * its metadata (RFC 8414 and OpenID Connect discovery), its key set, an authorization endpoint that
 * signs in whoever `login` names at once (no login page to drive) and a token endpoint that redeems
 * each code once against its PKCE challenge and answers with a signed ID token. It counts the
 * requests each endpoint gets; its key set can instead never answer, or stream megabytes.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { JWK, JWTPayload } from 'jose';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair } from 'jose';

/** A private key as jose's generateKeyPair gives it. */
type CryptoKeyLike = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

import type { Scope } from './harness.js';

/** How the key set endpoint answers: the keys, never (the request hangs), or an endless JSON stream. */
export type JwksMode = 'keys' | 'silent' | 'huge';

/** Requests each endpoint got. */
export interface IssuerCounts {
  metadata: number;
  jwks: number;
  authorize: number;
  token: number;
}

/** A running issuer. */
export interface Issuer {
  /** `http://127.0.0.1:<port>`: the issuer identifier and the base of every endpoint. */
  readonly url: string;
  readonly counts: IssuerCounts;
  /** Bytes the key set endpoint wrote in `huge` mode, per request. */
  readonly jwksBytes: number[];
  /** The signing key's public half as PEM (what an HS256 forger would use as the secret). */
  readonly publicPem: string;
  /** `claims` signed with the issuer's key (`kid` its key id unless given), `iss` this issuer. */
  sign(claims: JWTPayload, header?: { kid?: string }): Promise<string>;
  /** `claims` signed with a key the issuer never published, under the issuer's key id unless given. */
  signForeign(claims: JWTPayload, header?: { kid?: string }): Promise<string>;
}

const KID = 'attack-rs256';
/** Bytes the `huge` key set streams at most. */
export const HUGE_JWKS_BYTES = 8 * 1024 * 1024;

interface Grant {
  readonly sub: string;
  readonly clientId: string;
  readonly nonce: string;
  readonly challenge: string;
  readonly redirectUri: string;
}

/** Starts an issuer on a free loopback port, stopped when the case ends. */
export async function startIssuer(scope: Scope, options: { jwks?: JwksMode } = {}): Promise<Issuer> {
  const mode = options.jwks ?? 'keys';
  const own = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256');
  const publicJwk: JWK = { ...(await exportJWK(own.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const counts: IssuerCounts = { metadata: 0, jwks: 0, authorize: 0, token: 0 };
  const jwksBytes: number[] = [];
  const grants = new Map<string, Grant>();
  const server = createServer((request, response) => void serve(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  scope.defer(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const signWith = (key: CryptoKeyLike, claims: JWTPayload, kid: string) =>
    new SignJWT({ iss: url, ...claims }).setProtectedHeader({ alg: 'RS256', kid }).sign(key);

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = new URL(request.url ?? '/', url);
    if (
      target.pathname === '/.well-known/oauth-authorization-server' ||
      target.pathname === '/.well-known/openid-configuration'
    ) {
      counts.metadata += 1;
      return json(response, 200, {
        issuer: url,
        authorization_endpoint: `${url}/authorize`,
        token_endpoint: `${url}/token`,
        jwks_uri: `${url}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (target.pathname === '/jwks') {
      counts.jwks += 1;
      if (mode === 'silent') return; // Never answered: the connection is closed when the case ends.
      if (mode === 'huge') return streamHuge(response);
      return json(response, 200, { keys: [publicJwk] });
    }
    if (target.pathname === '/authorize') return authorize(target, response);
    if (target.pathname === '/token' && request.method === 'POST') return token(request, response);
    return json(response, 404, { error: 'not_found' });
  }

  /** Signs in `login` at once and sends the browser back with a fresh code. */
  function authorize(target: URL, response: ServerResponse): void {
    counts.authorize += 1;
    const get = (name: string) => target.searchParams.get(name) ?? '';
    const code = randomBytes(16).toString('base64url');
    grants.set(code, {
      sub: get('login') || 'ada',
      clientId: get('client_id'),
      nonce: get('nonce'),
      challenge: get('code_challenge'),
      redirectUri: get('redirect_uri'),
    });
    const back = new URL(get('redirect_uri'));
    back.searchParams.set('code', code);
    back.searchParams.set('state', get('state'));
    back.searchParams.set('iss', url);
    response.writeHead(302, { location: back.href }).end();
  }

  /** Redeems a code once, against its PKCE challenge and redirect URI. */
  async function token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    counts.token += 1;
    let body = '';
    for await (const chunk of request) {
      body += String(chunk);
      if (body.length > 16_384) return json(response, 400, { error: 'invalid_request' });
    }
    const form = new URLSearchParams(body);
    const code = form.get('code') ?? '';
    const grant = grants.get(code);
    grants.delete(code);
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (grant === undefined || grant.challenge !== challenge || grant.redirectUri !== form.get('redirect_uri')) {
      return json(response, 400, { error: 'invalid_grant' });
    }
    const idToken = await new SignJWT({ nonce: grant.nonce })
      .setProtectedHeader({ alg: 'RS256', kid: KID })
      .setIssuer(url)
      .setSubject(grant.sub)
      .setAudience(grant.clientId)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(own.privateKey);
    json(response, 200, {
      access_token: randomBytes(16).toString('base64url'),
      token_type: 'Bearer',
      expires_in: 600,
      id_token: idToken,
    });
  }

  /** A key set that never ends: keys of 64 KiB each, up to {@link HUGE_JWKS_BYTES}, as fast as the reader takes them. */
  async function streamHuge(response: ServerResponse): Promise<void> {
    const index = jwksBytes.push(0) - 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    const chunk = `{"kty":"RSA","kid":"pad","n":"${'A'.repeat(65_536)}","e":"AQAB"},`;
    response.write('{"keys":[');
    let written = 9;
    let closed = false;
    let wake = (): void => undefined;
    response.once('close', () => ((closed = true), wake()));
    while (written < HUGE_JWKS_BYTES && !closed) {
      written += chunk.length;
      jwksBytes[index] = written;
      if (!response.write(chunk))
        await new Promise<void>((resolve) => ((wake = resolve), response.once('drain', resolve)));
    }
    response.end();
  }

  return {
    url,
    counts,
    jwksBytes,
    publicPem: await exportSPKI(own.publicKey),
    sign: (claims, header = {}) => signWith(own.privateKey, claims, header.kid ?? KID),
    signForeign: (claims, header = {}) => signWith(foreign.privateKey, claims, header.kid ?? KID),
  };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
