/**
 * The whole OAuth story with the official client on both eras: a refund desk served with the
 * `oauth` option, the client's own auth flow (protected resource metadata discovery, authorization
 * server discovery, dynamic client registration, authorization code + PKCE with the resource
 * indicator) against oidc-provider, a person signing in and consenting in Chromium, and then the
 * refund tool asking that person (the client's elicitation handler) until the refund completes.
 */
import { auth, UnauthorizedError } from '@modelcontextprotocol/client';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { connectHttp } from '../../src/testing/index.js';
import { useAuthorizationServer } from '../fixtures/authorizationServer.js';
import type { FetchServer } from '../fixtures/browser.js';
import { serveFetch, useBrowser } from '../fixtures/browser.js';
import { InMemoryOAuthClient } from '../fixtures/oauthClient.js';

const browser = useBrowser();
const issuerOf = useAuthorizationServer({ scopes: ['refunds'], resourceServer: () => ({ scope: 'refunds' }) });
let desk: HttpServerHandle;
let callback: FetchServer;
beforeAll(async () => {
  desk = await serveHttp(createRefundDesk(), { oauth: { issuer: issuerOf.current().issuer, scopes: ['refunds'] } });
  // The client's redirect URI: a page the browser lands on with the code (the test reads it from the request).
  callback = await serveFetch(() => Promise.resolve(new Response('You can close this window.')));
});
afterAll(async () => {
  await desk.close();
  await callback.close();
});

/** The person at the keyboard: one item of the order back (the mug), and back in stock. */
function person(asked: string[]) {
  return (params: ElicitRequest['params']): ElicitResult => {
    asked.push(params.message);
    if (params.message.includes('Refund the whole order'))
      return { action: 'accept', content: { full: false, sku: 'enamel-mug' } };
    return { action: 'accept', content: { restock: true } };
  };
}

describe('the official client’s OAuth flow against oidc-provider, in Chromium', () => {
  it.each(['modern', 'legacy'] as const)('authorizes and completes a refund on the %s era', async (era) => {
    const server = issuerOf.current();
    const redirectUri = `${callback.origin}/callback`;
    const client = new InMemoryOAuthClient(redirectUri);
    const asked: string[] = [];
    const options = { era, elicit: person(asked), transportOptions: { authProvider: client } };

    // 1. Unauthorized: the SDK discovers, registers and asks the host to open the authorization URL.
    await expect(connectHttp(desk.url, options)).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizationUrl = client.authorizationUrl;
    expect(authorizationUrl?.origin).toBe(server.issuer);
    expect(authorizationUrl?.searchParams.get('resource')).toBe(desk.url.href);
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    // The scope the 401 challenge named (the SDK adds offline_access, which the provider supports).
    expect(authorizationUrl?.searchParams.get('scope')?.split(' ')).toContain('refunds');

    // 2. The person signs in and consents in the browser; the provider redirects with a code.
    const page = await browser.page();
    const redirected = await server.signIn(page, authorizationUrl ?? '', { redirectUri, login: 'ada' });
    await page.close();
    const code = redirected.searchParams.get('code');
    expect(code).not.toBeNull();

    // 3. The client redeems the code (what transport.finishAuth does) and holds an audience-bound token.
    const finished = await auth(client, {
      serverUrl: desk.url,
      authorizationCode: code ?? '',
      ...(redirected.searchParams.has('iss') && { iss: redirected.searchParams.get('iss') ?? '' }),
    });
    expect(finished).toBe('AUTHORIZED');
    const claims = decodeJwt(client.tokens()?.access_token ?? '');
    expect(claims).toMatchObject({ iss: server.issuer, sub: 'ada', aud: desk.url.href, scope: 'refunds' });

    // 4. Reconnected with the token: the refund asks the person and completes with their answers.
    const connection = await connectHttp(desk.url, options);
    try {
      expect(connection.client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      const result = await connection.client.callTool({
        name: 'refund_order',
        arguments: { order_id: 'ORD-7002', reason: 'the mug arrived chipped' },
      });
      expect(result.isError).not.toBe(true);
      expect(result.structuredContent).toEqual({
        order_id: 'ORD-7002',
        refunded_cents: 1800,
        restocked: true,
        reason: 'the mug arrived chipped',
      });
      expect(asked).toHaveLength(2);
    } finally {
      await connection.close();
    }
  });
});
