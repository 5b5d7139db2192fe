/**
 * The whole story of a server reached from a hosted chat, on both eras, with no login of the
 * server's own: the refund desk behind the `oauth` option, its answer pages signing the person in
 * through the same authorization server (`answerPage.signIn`, no `browserUser`). The official
 * client authorizes with its own OAuth flow (discovery, dynamic registration, code + PKCE) against
 * oidc-provider, the person signing in in Chromium; the client shows no forms, so each question
 * reaches the person as a link, and the page, opened in the same browser, signs them in through
 * the provider they are already signed in at: no second password. Their answers complete the refund.
 */
import { auth, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { Era } from '../../src/context.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { connectHttp } from '../../src/testing/index.js';
import type { AuthorizationServer } from '../fixtures/authorizationServer.js';
import { startAuthorizationServer } from '../fixtures/authorizationServer.js';
import type { FetchServer } from '../fixtures/browser.js';
import { forwardTo, serveFetch, useBrowser } from '../fixtures/browser.js';
import { InMemoryOAuthClient } from '../fixtures/oauthClient.js';
import { answerDeskPage, refundByLinks } from './deskPages.js';

const ERAS: Era[] = ['modern', 'legacy'];
const PAGES = '/mcp-resolve/answer';
const PAGE_CLIENT = { clientId: 'desk-pages', clientSecret: 'desk-pages-secret-for-tests' };

const browser = useBrowser();
let front: FetchServer;
let callback: FetchServer;
let provider: AuthorizationServer;
let desk: HttpServerHandle | undefined;

beforeAll(async () => {
  front = await serveFetch(forwardTo(() => desk?.url));
  // The chat client's redirect URI: where the browser lands with the code.
  callback = await serveFetch(() => Promise.resolve(new Response('You can close this window.')));
  provider = await startAuthorizationServer({
    scopes: ['refunds'],
    resourceServer: () => ({ scope: 'refunds' }),
    clients: [{ ...PAGE_CLIENT, redirectUris: [`${front.origin}${PAGES}/signed-in`], scope: 'openid' }],
  });
  const { issuer } = provider;
  desk = await serveHttp(
    createRefundDesk({
      answerPage: {
        publicOrigin: front.origin,
        formSecret: 'the desk pages form secret, 32 bytes or more',
        signIn: { issuer, ...PAGE_CLIENT },
      },
    }),
    { oauth: { issuer, scopes: ['refunds'] } },
  );
});
afterAll(async () => {
  try {
    await desk?.close();
  } finally {
    await Promise.all([provider?.stop(), front?.close(), callback?.close()]);
  }
});

describe('the refund desk behind OAuth, its pages signing in through the same provider', () => {
  it.each(ERAS)('authorizes the official client, then takes the answers on pages (%s era)', async (era) => {
    const redirectUri = `${callback.origin}/callback`;
    const oauthClient = new InMemoryOAuthClient(redirectUri);
    // A client that shows no forms: every question reaches the person as a link.
    const options = { era, capabilities: {}, transportOptions: { authProvider: oauthClient } };
    await expect(connectHttp(desk!.url, options)).rejects.toBeInstanceOf(UnauthorizedError);

    const authTab = await browser.page();
    const context = authTab.context();
    try {
      const redirected = await provider.signIn(authTab, oauthClient.authorizationUrl ?? '', {
        redirectUri,
        login: 'ada',
      });
      const authorized = await auth(oauthClient, {
        serverUrl: desk!.url,
        authorizationCode: redirected.searchParams.get('code') ?? '',
        ...(redirected.searchParams.has('iss') && { iss: redirected.searchParams.get('iss') ?? '' }),
      });
      expect(authorized).toBe('AUTHORIZED');

      const connection = await connectHttp(desk!.url, options);
      const asked: string[] = [];
      let signedIn = false;
      try {
        await refundByLinks(connection, asked, async (url) => {
          const tab = await context.newPage();
          if (!signedIn) {
            // Ada is signed in at the provider already (she authorized the chat): no login page comes,
            // so the name typed at one would never be used; had it come, Mallory's page would be 403.
            await provider.signIn(tab, url, { redirectUri: `${front.origin}${PAGES}/signed-in`, login: 'mallory' });
            await tab.waitForURL(url);
            signedIn = true;
          }
          await answerDeskPage(tab, url, asked);
        });
      } finally {
        await connection.close();
      }
    } finally {
      await authTab.close();
    }
  });
});
