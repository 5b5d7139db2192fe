/**
 * The `oauth` option against a real authorization server (oidc-provider): the protected resource
 * metadata, the 401/403 challenges, JWT access tokens checked for issuer, signature, audience,
 * expiry and scope, opaque tokens by introspection, and the principal (iss + sub) every sealed
 * state is bound to. Served by `serveHttp` (JWT) and by `createDualEraHandler` on a plain loopback
 * server (introspection), so both hosts are covered.
 */
import type { Client } from '@modelcontextprotocol/client';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { createDualEraHandler } from '../../src/index.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { MODERN_PROTOCOL_VERSION } from '../../src/testing/connection.js';
import { useAuthorizationServer } from '../fixtures/authorizationServer.js';
import type { FetchServer } from '../fixtures/browser.js';
import { serveFetch } from '../fixtures/browser.js';
import { connectBearer } from '../fixtures/bearerNames.js';

// Resource indicators ending in /opaque get opaque tokens (for introspection); the rest JWTs.
const issuerOf = useAuthorizationServer({
  scopes: ['mcp', 'refunds'],
  resourceServer: (resource) => ({ scope: 'mcp refunds', format: resource.endsWith('/opaque') ? 'opaque' : 'jwt' }),
});
let jwtServer: HttpServerHandle;
let opaqueServer: FetchServer;
const clients: Client[] = [];
const errors: Error[] = [];
beforeAll(async () => {
  const { issuer, machineClient } = issuerOf.current();
  jwtServer = await serveHttp(createRefundDesk(), { oauth: { issuer, scopes: ['mcp'] } });
  const handler = createDualEraHandler(createRefundDesk(), {
    path: '/opaque',
    oauth: { issuer, scopes: ['mcp', 'refunds'], introspection: machineClient, resourceName: 'Refund desk' },
    onerror: (error) => errors.push(error),
  });
  opaqueServer = await serveFetch((request) => handler.fetch(request));
});
afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await jwtServer.close();
  await opaqueServer.close();
});

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

/** A modern `tools/list` POST to `url` with `token` (none when undefined). */
function listTools(url: URL | string, token?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
    },
    body: LIST,
  });
}

/** {@link connectBearer}, closed after the test. */
async function connectAs(url: URL, token: string): Promise<Client> {
  const client = await connectBearer(url, token);
  clients.push(client);
  return client;
}

/** A JWT access token for the JWT server, signed by the provider's own key, with `claims` over sane defaults. */
function signed(claims: Record<string, unknown>): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return issuerOf.current().signAccessToken({
    iss: issuerOf.current().issuer,
    sub: 'ada',
    aud: jwtServer.url.href,
    client_id: 'desk-app',
    scope: 'mcp',
    iat: now,
    exp: now + 600,
    ...claims,
  });
}

describe('oauth: protected resource metadata and challenges', () => {
  it('serves the metadata document at the well-known path of the endpoint', async () => {
    const response = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', jwtServer.url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource: jwtServer.url.href,
      authorization_servers: [issuerOf.current().issuer],
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
    });
    const named = await fetch(`${opaqueServer.origin}/.well-known/oauth-protected-resource/opaque`);
    expect(await named.json()).toMatchObject({
      resource: `${opaqueServer.origin}/opaque`,
      resource_name: 'Refund desk',
    });
  });

  it('answers a request without a token 401 with resource_metadata and the required scope', async () => {
    const response = await listTools(jwtServer.url);
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer error="invalid_token"/);
    expect(challenge).toContain(`resource_metadata="${jwtServer.url.origin}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('scope="mcp"');
  });

  it('accepts a client-credentials token the provider issued for this resource', async () => {
    const token = await issuerOf.current().clientCredentialsToken({ resource: jwtServer.url.href, scope: 'mcp' });
    const { tools } = await (await connectAs(jwtServer.url, token)).listTools();
    expect(tools.map((tool) => tool.name)).toContain('refund_order');
  });

  it('refuses a token issued for another resource (401)', async () => {
    const token = await issuerOf
      .current()
      .clientCredentialsToken({ resource: 'http://127.0.0.1:9/other', scope: 'mcp' });
    const response = await listTools(jwtServer.url, token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('refuses an expired token, a token of another issuer and a token signed by another key (401)', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const forged = await new SignJWT({
      sub: 'ada',
      aud: jwtServer.url.href,
      scope: 'mcp',
      iss: issuerOf.current().issuer,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'fixture-rs256', typ: 'at+jwt' })
      .setExpirationTime('10m')
      .sign(privateKey);
    for (const token of [
      await signed({ iat: past - 600, exp: past }),
      await signed({ iss: 'http://127.0.0.1:9' }),
      forged,
      'x'.repeat(9_000),
    ]) {
      const response = await listTools(jwtServer.url, token);
      expect(response.status).toBe(401);
    }
  });

  it('refuses a token without a required scope 403 insufficient_scope naming the scopes', async () => {
    const token = await issuerOf
      .current()
      .clientCredentialsToken({ resource: `${opaqueServer.origin}/opaque`, scope: 'mcp' });
    const response = await listTools(`${opaqueServer.origin}/opaque`, token);
    expect(response.status).toBe(403);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="mcp refunds"');
  });

  it('introspects opaque tokens: an active one for this resource passes, an unknown one is 401', async () => {
    const token = await issuerOf
      .current()
      .clientCredentialsToken({ resource: `${opaqueServer.origin}/opaque`, scope: 'mcp refunds' });
    expect(token.split('.')).toHaveLength(1);
    const { tools } = await (await connectAs(new URL(`${opaqueServer.origin}/opaque`), token)).listTools();
    expect(tools.map((tool) => tool.name)).toContain('refund_order');
    expect((await listTools(`${opaqueServer.origin}/opaque`, 'not-a-token-it-issued')).status).toBe(401);
    expect(errors).toEqual([]);
  });
});

describe('oauth: the principal is the token’s iss and sub', () => {
  const ARGS = { order_id: 'ORD-7002', reason: 'arrived broken' };

  async function firstRound(client: Client): Promise<{ key: string; requestState: string }> {
    const result: unknown = await client.request(
      { method: 'tools/call', params: { name: 'refund_order', arguments: ARGS } },
      { allowInputRequired: true },
    );
    if (!isInputRequiredResult(result) || result.requestState === undefined) throw new Error('round 1 should ask');
    return { key: Object.keys(result.inputRequests ?? {})[0] ?? '', requestState: result.requestState };
  }

  function secondRound(client: Client, round: { key: string; requestState: string }): Promise<unknown> {
    return client.request(
      {
        method: 'tools/call',
        params: {
          name: 'refund_order',
          arguments: ARGS,
          requestState: round.requestState,
          inputResponses: { [round.key]: { action: 'accept', content: { full: true } } },
        },
      },
      { allowInputRequired: true },
    );
  }

  it('continues a state with another token of the same person and refuses it for another person', async () => {
    const ada = await connectAs(jwtServer.url, await signed({ sub: 'ada', jti: 'one' }));
    const adaAgain = await connectAs(jwtServer.url, await signed({ sub: 'ada', jti: 'two' }));
    const grace = await connectAs(jwtServer.url, await signed({ sub: 'grace' }));
    const round = await firstRound(ada);
    await expect(secondRound(grace, round)).rejects.toThrow('Invalid or expired requestState');
    const continued = await secondRound(adaAgain, await firstRound(ada));
    expect(isInputRequiredResult(continued)).toBe(true);
  });
});

describe('oauth: an authorization server that cannot be reached', () => {
  it('answers 500 server_error (not 401, which would send the client to sign in again) and reports why', async () => {
    const reported: Error[] = [];
    // Port 9 (discard) on loopback: nothing listens, so discovery fails at once.
    const handler = createDualEraHandler(createRefundDesk(), {
      oauth: { issuer: 'http://127.0.0.1:9' },
      onerror: (error) => reported.push(error),
    });
    const server = await serveFetch((request) => handler.fetch(request));
    try {
      const response = await listTools(`${server.origin}/mcp`, await signed({}));
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ error: 'server_error' });
      expect(reported.map((error) => error.message)).toEqual([
        'no authorization server metadata for http://127.0.0.1:9',
      ]);
    } finally {
      await server.close();
      await handler.close();
    }
  });
});
