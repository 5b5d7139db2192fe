/**
 * The authorization server fixture itself: a static public client signs a person in through
 * Chromium (authorization code + PKCE), and the token it gets is a JWT bound to the resource asked for.
 */
import { createHash, randomBytes } from 'node:crypto';

import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { useAuthorizationServer } from '../fixtures/authorizationServer.js';
import type { FetchServer } from '../fixtures/browser.js';
import { serveFetch, useBrowser } from '../fixtures/browser.js';

const browser = useBrowser();
let callback: FetchServer;
beforeAll(async () => {
  callback = await serveFetch(() => Promise.resolve(new Response('signed in')));
});
afterAll(async () => {
  await callback.close();
});
const redirectUri = () => `${callback.origin}/callback`;
const issuerOf = useAuthorizationServer();

describe('authorization server fixture', () => {
  it('signs a person in through Chromium and issues a resource-bound JWT for the code and verifier', async () => {
    const server = issuerOf.current();
    // A dynamically registered public client, as the MCP client registers.
    const { clientId } = await server.register({ redirectUris: [redirectUri()] });
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const resource = 'http://127.0.0.1:9/mcp';
    const authorize = new URL(`${server.issuer}/auth`);
    for (const [name, value] of Object.entries({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri(),
      scope: 'mcp',
      state: 'state-1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource,
    }))
      authorize.searchParams.set(name, value);
    const page = await browser.page();
    const redirected = await server.signIn(page, authorize, { redirectUri: redirectUri(), login: 'ada' });
    expect(redirected.searchParams.get('state')).toBe('state-1');
    const token = await fetch(`${server.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code: redirected.searchParams.get('code') ?? '',
        redirect_uri: redirectUri(),
        code_verifier: verifier,
        resource,
      }),
    });
    const body = (await token.json()) as { access_token: string; scope: string };
    expect(body.scope).toBe('mcp');
    const claims = decodeJwt(body.access_token);
    expect(claims).toMatchObject({ iss: server.issuer, sub: 'ada', aud: resource, scope: 'mcp' });
  });

  it('issues client-credentials tokens bound to the resource', async () => {
    const server = issuerOf.current();
    const token = await server.clientCredentialsToken({ resource: 'http://127.0.0.1:9/mcp', scope: 'mcp' });
    expect(decodeJwt(token)).toMatchObject({
      iss: server.issuer,
      aud: 'http://127.0.0.1:9/mcp',
      client_id: 'fixture-machine',
    });
  });
});
