/**
 * `answerPage.signIn` without a provider: its checks at construction, and what the page does
 * before any redirect reaches one (a post without a session, the callback without its flow, a
 * provider that cannot be reached). Signing in at a real provider, in Chromium, is the refund desk
 * story's test.
 */
import { describe, expect, it } from 'vitest';

import { answerPagePath, createAnswerPageHandler } from '../../src/answerPage/handler.js';
import type { AnswerPageSignInOptions } from '../../src/answerPage/signIn.js';
import { createFormTokens } from '../../src/answerPage/formToken.js';
import { createAnswerPageStore } from '../../src/pageStore/store.js';
import { utf8 } from '../../src/state/bytes.js';
import { McpResolveError } from '../../src/errors.js';
import { ALICE_CALL, REFUND_QUESTION, refundForm } from './helpers.js';
import { refundServer } from './refundServer.js';

const ORIGIN = 'http://localhost:3000';
const FORM_SECRET = 'the pages form secret, 32 bytes or more';
/** Nothing listens on port 1 of loopback: discovery fails at once. */
const UNREACHABLE: AnswerPageSignInOptions = { issuer: 'http://127.0.0.1:1', clientId: 'desk-pages' };

/** The `invalid_options` message of a refund server built with `answerPage`. */
function refusal(answerPage: Parameters<typeof refundServer>[0]): string {
  try {
    refundServer(answerPage);
  } catch (error) {
    if (error instanceof McpResolveError && error.code === 'invalid_options') return error.message;
    throw error;
  }
  return expect.fail('expected invalid_options');
}

describe('answerPage.signIn', () => {
  it('is checked at construction', () => {
    expect(refusal({ signIn: UNREACHABLE, browserUser: () => undefined })).toBe(
      'new McpResolveServer(): answerPage.signIn cannot be used with answerPage.browserUser. Give signIn to sign people in through your authorization server, or browserUser for your own login, not both.',
    );
    for (const issuer of ['http://auth.example.com', 'auth.example.com']) {
      expect(refusal({ signIn: { ...UNREACHABLE, issuer } })).toBe(
        `new McpResolveServer(): answerPage.signIn must name an https issuer (got '${issuer}'). Give the provider's issuer, as its discovery document names it; plain http is allowed only for localhost, 127.0.0.1 and [::1].`,
      );
    }
    expect(refusal({ signIn: { ...UNREACHABLE, clientId: '' } })).toBe(
      'new McpResolveServer(): answerPage.signIn must name a clientId. Register this server as a client at the provider and give its client id.',
    );
    expect(refusal({ signIn: { ...UNREACHABLE, clientSecret: '' } })).toBe(
      'new McpResolveServer(): answerPage.signIn has an empty clientSecret. Give the client secret the provider issued, or leave clientSecret out for a public client (an environment variable that is not set reads as empty).',
    );
    expect(() =>
      refundServer({ signIn: { issuer: 'https://auth.example.com', clientId: 'desk-pages' } }),
    ).not.toThrow();
  });

  it('shows a page bound to no principal without signing in', async () => {
    const store = createAnswerPageStore();
    const handler = createAnswerPageHandler({ store, signIn: UNREACHABLE });
    const page = await store.open({ ...ALICE_CALL, principal: undefined }, REFUND_QUESTION);
    expect((await handler(new Request(ORIGIN + answerPagePath(page.pageId))))!.status).toBe(200);
  });

  it('refuses a post without a session, and a callback without its flow', async () => {
    const store = createAnswerPageStore();
    const handler = createAnswerPageHandler({ store, signIn: UNREACHABLE, formSecret: FORM_SECRET });
    const page = await store.open(ALICE_CALL, REFUND_QUESTION);
    const pagePath = answerPagePath(page.pageId);
    const minted = createFormTokens(utf8(FORM_SECRET)).mint(page.pageId, pagePath, false, 60_000);
    const posted = (await handler(
      new Request(ORIGIN + pagePath, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: minted.setCookie.split(';')[0]! },
        body: refundForm({ 'form-token': minted.token }).toString(),
      }),
    ))!;
    expect(posted.status).toBe(401);
    expect(await posted.text()).toContain('Your sign-in has expired');
    const callback = (await handler(new Request(`${ORIGIN}/mcp-resolve/answer/signed-in?code=c&state=s`)))!;
    expect(callback.status).toBe(400);
    expect(await callback.text()).toContain('Sign-in did not complete');
    expect(callback.headers.get('set-cookie')).toBe(
      'mcp-resolve-signin-flow=; Path=/mcp-resolve/answer/signed-in; Max-Age=0; HttpOnly; SameSite=Lax',
    );
    const put = (await handler(new Request(`${ORIGIN}/mcp-resolve/answer/signed-in`, { method: 'POST' })))!;
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET');
  });

  it('answers 503 with a ref, reported, while the provider cannot be reached', async () => {
    const errors: Error[] = [];
    const store = createAnswerPageStore();
    const handler = createAnswerPageHandler({ store, signIn: UNREACHABLE, onerror: (error) => errors.push(error) });
    const page = await store.open(ALICE_CALL, REFUND_QUESTION);
    const response = (await handler(new Request(ORIGIN + answerPagePath(page.pageId))))!;
    expect(response.status).toBe(503);
    const ref = /\(ref ([0-9a-f]{12})\)/.exec(await response.text())?.[1];
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message.startsWith(`answer page failure [ref ${ref}]: `)).toBe(true);
  });
});
