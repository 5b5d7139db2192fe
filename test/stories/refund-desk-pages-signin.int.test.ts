/**
 * The refund desk behind OAuth with answer pages that sign the person in through the same
 * authorization server (`answerPage.signIn`, no `browserUser`), in Chromium against oidc-provider.
 * MCP requests carry Ada's identity at the provider (`authenticate` gives its issuer and her
 * subject); the page sends her browser to the provider's login and consent, back to the page, and
 * takes her answer. The next page goes straight to the form through the provider's own session;
 * Bob, signed in at the same provider, gets 403; a tampered or expired session signs in again; a
 * callback whose state is not the browser's is refused with 400. The browser reaches the desk
 * through a loopback proxy (the desk's `publicOrigin`), whose address the provider knows first.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { createSignInCookies, FLOW_COOKIE, SESSION_COOKIE } from '../../src/answerPage/signInCookies.js';
import type { Era } from '../../src/context.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import type { TestConnection } from '../../src/testing/index.js';
import { connectHttp } from '../../src/testing/index.js';
import type { AuthorizationServer } from '../fixtures/authorizationServer.js';
import { startAuthorizationServer } from '../fixtures/authorizationServer.js';
import type { FetchServer } from '../fixtures/browser.js';
import { forwardTo, serveFetch, useBrowser } from '../fixtures/browser.js';
import { answerDeskPage, ARGS, refundByLinks } from './deskPages.js';

const ERAS: Era[] = ['modern', 'legacy'];
const PAGES = '/mcp-resolve/answer';
const CLIENT = { clientId: 'desk-pages', clientSecret: 'desk-pages-secret-for-tests' };
const FORM_SECRET = 'the desk pages form secret, 32 bytes or more';

const browser = useBrowser();
let front: FetchServer;
let provider: AuthorizationServer;
let desk: HttpServerHandle | undefined;

beforeAll(async () => {
  front = await serveFetch(forwardTo(() => desk?.url));
  provider = await startAuthorizationServer({
    clients: [{ ...CLIENT, redirectUris: [`${front.origin}${PAGES}/signed-in`], scope: 'openid' }],
  });
  const { issuer } = provider;
  // Each person's MCP client holds a bearer token naming their subject at the provider.
  const authenticate = (request: Request): AuthInfo | Response => {
    const sub = /^Bearer (\w+)-token$/.exec(request.headers.get('authorization') ?? '')?.[1];
    if (sub === undefined) return new Response(null, { status: 401 });
    return { token: `${sub}-token`, clientId: 'desk-app', scopes: [], extra: { iss: issuer, sub } };
  };
  desk = await serveHttp(
    createRefundDesk({
      answerPage: { publicOrigin: front.origin, formSecret: FORM_SECRET, signIn: { issuer, ...CLIENT } },
    }),
    { authenticate },
  );
});
afterAll(async () => {
  try {
    await desk?.close();
  } finally {
    await Promise.all([provider?.stop(), front?.close()]);
  }
});

/** A client of the desk on `era`, without elicitation, signed in as `person`. */
function clientOf(person: string, era: Era = 'modern'): Promise<TestConnection> {
  const headers = { authorization: `Bearer ${person}-token` };
  return connectHttp(desk!.url, { era, capabilities: {}, transportOptions: { requestInit: { headers } } });
}

/** The link of the desk's first question, asked of `person`. */
async function firstLink(person: string): Promise<string> {
  const connection = await clientOf(person);
  try {
    const result = await connection.client.callTool({ name: 'refund_order', arguments: ARGS });
    const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
    return /https?:\/\/\S+/.exec(text)![0];
  } finally {
    await connection.close();
  }
}

/** Signs in at the provider as `login` from the page `url`, and waits for the page again. */
async function signInFrom(tab: Page, url: string, login: string): Promise<void> {
  await provider.signIn(tab, url, { redirectUri: `${front.origin}${PAGES}/signed-in`, login });
  await tab.waitForURL(url);
}

/** Which of the provider's endpoints `tab` asks for while `run` runs (`/auth`, `/interaction/…`). */
async function providerVisits(tab: Page, run: () => Promise<void>): Promise<string[]> {
  const visits: string[] = [];
  const seen = (request: { url(): string }) => {
    if (request.url().startsWith(provider.issuer)) visits.push(new URL(request.url()).pathname.split('/')[1]!);
  };
  tab.on('request', seen);
  try {
    await run();
  } finally {
    tab.off('request', seen);
  }
  return visits;
}

/** What `console.error` prints from now on (the server's page failures), and how to stop collecting. */
function captureConsoleErrors(): { readonly lines: string[]; restore(): void } {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
  return { lines, restore: () => spy.mockRestore() };
}

/** A new tab of `context` holding the provider's session but none of the pages' own. */
async function withoutPageSession(context: BrowserContext): Promise<Page> {
  await context.clearCookies({ name: SESSION_COOKIE });
  return context.newPage();
}

describe('the refund desk with pages that sign in through the authorization server', () => {
  it.each(ERAS)(
    'Ada signs in at the provider and answers; the next page goes straight to the form (%s era)',
    async (era) => {
      const asked: string[] = [];
      const connection = await clientOf('ada', era);
      let context: BrowserContext | undefined;
      try {
        await refundByLinks(connection, asked, async (url) => {
          if (context === undefined) {
            const tab = await browser.page();
            context = tab.context();
            const visits = await providerVisits(tab, () => signInFrom(tab, url, 'ada'));
            expect(visits).toContain('interaction');
            // The callback's two Set-Cookie headers both arrive: the session set, the flow cleared.
            const names = (await context.cookies()).map((cookie) => cookie.name);
            expect(names).toContain(SESSION_COOKIE);
            expect(names).not.toContain(FLOW_COOKIE);
            await answerDeskPage(tab, url, asked);
            return;
          }
          const tab = await withoutPageSession(context);
          const visits = await providerVisits(tab, () => answerDeskPage(tab, url, asked));
          expect(visits).toEqual(['auth']);
        });
      } finally {
        await connection.close();
      }
    },
  );

  it('refuses Bob, signed in at the same provider, with 403', async () => {
    const url = await firstLink('ada');
    const tab = await browser.page();
    try {
      await signInFrom(tab, url, 'bob');
      expect(await tab.locator('h1').textContent()).toBe('This question is not for this account');
      expect((await tab.reload())?.status()).toBe(403);
    } finally {
      await tab.close();
    }
  });

  it('signs in again over a tampered or expired session cookie', async () => {
    const url = await firstLink('ada');
    const tab = await browser.page();
    try {
      await signInFrom(tab, url, 'ada');
      const context = tab.context();
      const [held] = await context.cookies(url).then((all) => all.filter((c) => c.name === SESSION_COOKIE));
      const expired = createSignInCookies(new TextEncoder().encode(FORM_SECRET), {
        issuer: provider.issuer,
        clientId: CLIENT.clientId,
        path: PAGES,
        callbackPath: `${PAGES}/signed-in`,
      }).session({ iss: provider.issuer, sub: 'ada' }, false, Date.now() - 7_200_000);
      for (const value of [
        `${held!.value.startsWith('W') ? 'X' : 'W'}${held!.value.slice(1)}`,
        /^[^=]+=([^;]+)/.exec(expired)![1]!,
      ]) {
        await context.addCookies([{ ...held!, value }]);
        expect(await providerVisits(tab, async () => void (await tab.goto(url)))).toEqual(['auth']);
        expect(await tab.locator('h1').textContent()).not.toBe('This question is not for this account');
        expect(await tab.getByRole('button', { name: 'Send answer' }).count()).toBe(1);
      }
    } finally {
      await tab.close();
    }
  });

  it('asks to open the link again when the person cancels at the provider', async () => {
    const url = await firstLink('ada');
    const tab = await browser.page();
    const logged = captureConsoleErrors();
    try {
      await tab.goto(url);
      await tab.waitForSelector('input[name="login"]');
      const back = tab.waitForResponse((response) => response.url().startsWith(`${front.origin}${PAGES}/signed-in`));
      await tab.getByText('[ Cancel ]').click();
      expect((await back).status()).toBe(400);
      // The provider's login page has an h1 too: wait for the server's page to be the one shown.
      await tab.locator('h1', { hasText: 'Sign-in did not complete' }).waitFor();
      const ref = /\(ref ([0-9a-f]{12})\)$/.exec((await tab.locator('p').textContent()) ?? '')?.[1];
      expect(logged.lines).toEqual([
        `mcp-resolve: an answer page could not be served: answer page failure [ref ${ref}]: the provider refused the sign-in: access_denied`,
      ]);
    } finally {
      logged.restore();
      await tab.close();
    }
  });

  it('refuses a callback whose state is not the one this browser was sent with', async () => {
    const url = await firstLink('ada');
    const tab = await browser.page();
    try {
      await tab.goto(url);
      await tab.waitForSelector('input[name="login"]');
      const forged = await tab.goto(`${front.origin}${PAGES}/signed-in?code=forged&state=forged`);
      expect(forged?.status()).toBe(400);
      expect(await tab.locator('h1').textContent()).toBe('Sign-in did not complete');
    } finally {
      await tab.close();
    }
  });
});
