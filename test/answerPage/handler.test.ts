import { describe, expect, it } from 'vitest';

import { createMemoryAnswerPageBackend } from '../../src/pageStore/memoryBackend.js';
import { createAnswerPageHandler, answerPagePath, NOT_SAVED } from '../../src/answerPage/handler.js';
import { PAGE_POSTS_PER_MINUTE } from '../../src/answerPage/postBudget.js';
import { createAnswerPageStore, newPageId } from '../../src/pageStore/store.js';
import type { AnswerPageHandlerOptions } from '../../src/answerPage/handler.js';
import { McpResolveError } from '../../src/errors.js';
import { ALICE_CALL, REFUND_QUESTION, refundForm } from './helpers.js';

const ORIGIN = 'http://localhost:3000';

async function setup(
  options: Partial<AnswerPageHandlerOptions> = {},
  store = createAnswerPageStore(),
  origin = ORIGIN,
) {
  const handler = createAnswerPageHandler({ store, ...options });
  const page = await store.open(ALICE_CALL, REFUND_QUESTION);
  const url = origin + answerPagePath(page.pageId);
  /** Opens the page as a browser does: the form token from the HTML, the cookie from Set-Cookie. */
  const open = async (headers: Record<string, string> = {}) => {
    const response = (await handler(new Request(url, { headers })))!;
    const html = await response.text();
    const token = /name="form-token" value="([^"]*)"/.exec(html)?.[1];
    const cookie = response.headers.get('set-cookie')?.split(';')[0];
    return { response, html, token, cookie };
  };
  const post = (form: URLSearchParams, headers: Record<string, string> = {}) =>
    handler(
      new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: form.toString(),
      }),
    ).then((response) => response!);
  const posted = async (form: URLSearchParams, headers: Record<string, string> = {}) => {
    const { token, cookie } = await open(headers);
    form.set('form-token', token!);
    return post(form, { cookie: cookie!, ...headers });
  };
  return { store, handler, page, url, open, post, posted };
}

describe('the answer page handler', () => {
  it('shows the form with a form token, a SameSite=Strict cookie and the strict headers', async () => {
    const { open, page } = await setup();
    const { response, html, token, cookie } = await open();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(response.headers.get('set-cookie')).toMatch(
      new RegExp(
        `^mcp-resolve-form=[\\w-]{22}; Path=/mcp-resolve/answer/${page.pageId}; Max-Age=\\d+; HttpOnly; SameSite=Strict$`,
      ),
    );
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(cookie).toBeDefined();
    expect(html).toContain('Refund order ORD-1 for Ada?');
  });

  it('stores a valid answer once, then the link is no longer valid', async () => {
    const { posted, store, open } = await setup();
    const done = await posted(refundForm());
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('your answer was saved');
    expect(done.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect(await store.take(ALICE_CALL)).toEqual({
      action: 'accept',
      content: { amount: 120, reason: 'damaged', email: 'ada@example.com', notify: true },
    });
    const again = await open();
    expect(again.response.status).toBe(404);
    expect(again.html).toContain('This link is no longer valid');
  });

  it('shows the form again with the field error when the answer does not fit', async () => {
    const { posted, store } = await setup();
    const response = await posted(refundForm({ 'field.amount': '9000' }));
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain('<p class="error" id="field-0-error" data-field="amount">Enter a number from 1 to 500.</p>');
    expect(html).toContain('value="9000"');
    expect(await store.take(ALICE_CALL)).toBeUndefined();
  });

  it('takes at most 30 posts a minute per page, then answers 429 with the seconds to wait', async () => {
    const { open, post, store } = await setup();
    const { token, cookie } = await open();
    const refused = () => {
      const form = refundForm({ 'field.amount': '9000' });
      form.set('form-token', token!);
      return post(form, { cookie: cookie! });
    };
    for (let index = 0; index < PAGE_POSTS_PER_MINUTE; index++) expect((await refused()).status).toBe(422);
    const limited = await refused();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.text()).toContain(`This page takes at most ${PAGE_POSTS_PER_MINUTE} answers a minute. Wait`);
    expect(await store.take(ALICE_CALL)).toBeUndefined();
  });

  it('stores a decline', async () => {
    const { posted, store } = await setup();
    expect((await posted(refundForm({ action: 'decline' }))).status).toBe(200);
    expect(await store.take(ALICE_CALL)).toEqual({ action: 'decline' });
  });

  it("refuses a post without its form token, with another page's token, or from another site", async () => {
    const { post, open, store, handler } = await setup();
    const { token, cookie } = await open();
    expect((await post(refundForm(), { cookie: cookie! })).status).toBe(403);
    const noCookie = refundForm();
    noCookie.set('form-token', token!);
    expect((await post(noCookie)).status).toBe(403);
    const crossSite = refundForm();
    crossSite.set('form-token', token!);
    expect((await post(crossSite, { cookie: cookie!, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const otherPage = await store.open({ ...ALICE_CALL, tool: 'other' }, REFUND_QUESTION);
    const stolen = refundForm();
    stolen.set('form-token', token!);
    const response = await handler(
      new Request(ORIGIN + answerPagePath(otherPage.pageId), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie! },
        body: stolen.toString(),
      }),
    );
    expect(response!.status).toBe(403);
    expect(await store.take(ALICE_CALL)).toBeUndefined();
  });

  it('gives one plain 404 page for a tampered, unknown or malformed page id, leaking nothing', async () => {
    const { handler, page } = await setup();
    const tampered = page.pageId.slice(0, -1) + (page.pageId.endsWith('A') ? 'B' : 'A');
    const bodies = new Set<string>();
    for (const id of [tampered, newPageId(), 'x', '%2e%2e%2fetc%2fpasswd', `${page.pageId}/extra`]) {
      const response = (await handler(new Request(ORIGIN + answerPagePath(id))))!;
      expect(response.status).toBe(404);
      bodies.add(await response.text());
    }
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).not.toContain('Refund');
  });

  it('with browserUser, refuses another user of a page bound to a principal with 403', async () => {
    const { open, posted } = await setup({ browserUser: (request) => request.headers.get('x-user') ?? undefined });
    expect((await open({ 'x-user': 'bob' })).response.status).toBe(403);
    expect((await open()).response.status).toBe(403);
    expect((await open({ 'x-user': 'alice' })).response.status).toBe(200);
    expect((await posted(refundForm(), { 'x-user': 'alice' })).status).toBe(200);
  });

  it('leaves other paths to the caller and refuses other methods', async () => {
    const { handler, url } = await setup();
    expect(await handler(new Request(`${ORIGIN}/mcp`))).toBeUndefined();
    expect(await handler(new Request(`${ORIGIN}/mcp-resolve/answerX`))).toBeUndefined();
    const response = (await handler(new Request(url, { method: 'DELETE' })))!;
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
  });

  it('answers 503 and reports when the store fails, and 413 for a body past the limit', async () => {
    const errors: Error[] = [];
    const store = createAnswerPageStore();
    const failing = { ...store, page: () => Promise.reject(new Error('store down')) };
    const handler = createAnswerPageHandler({ store: failing, onerror: (error) => errors.push(error) });
    const response = (await handler(new Request(ORIGIN + answerPagePath(newPageId()))))!;
    expect(response.status).toBe(503);
    const ref = /\(ref ([0-9a-f]{12})\)/.exec(await response.text())?.[1];
    expect(ref).toBeDefined();
    expect(errors.map((error) => error.message)).toEqual([`answer page failure [ref ${ref}]: store down`]);
    expect((errors[0]!.cause as Error).message).toBe('store down');
    const small = createAnswerPageHandler({ store: createAnswerPageStore({ maxAnswerBytes: 10 }) });
    const big = await small(
      new Request(ORIGIN + answerPagePath(newPageId()), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'x'.repeat(10_000),
      }),
    );
    expect(big!.status).toBe(413);
  });

  it('refuses a short form secret and a path that is not one, naming the option', () => {
    const store = createAnswerPageStore();
    expect(() => createAnswerPageHandler({ store, formSecret: 'short' })).toThrow(McpResolveError);
    expect(() => createAnswerPageHandler({ store, formSecret: 'short' })).toThrow(
      'createAnswerPageHandler(): formSecret must be at least 32 bytes (got 5). Use 32 random bytes, the same on every instance (an environment variable that is not set reads as empty).',
    );
    expect(() => createAnswerPageHandler({ store, path: 'answer/' })).toThrow(/: path must start with '\/'/);
  });

  it('lets two handlers with the same form secret serve one page between them (a fleet)', async () => {
    const formSecret = 'x'.repeat(32);
    const store = createAnswerPageStore();
    const first = createAnswerPageHandler({ store, formSecret });
    const second = createAnswerPageHandler({ store, formSecret });
    const page = await store.open(ALICE_CALL, REFUND_QUESTION);
    const url = ORIGIN + answerPagePath(page.pageId);
    const shown = (await first(new Request(url)))!;
    const form = refundForm();
    form.set('form-token', /name="form-token" value="([^"]*)"/.exec(await shown.text())![1]!);
    const response = await second(
      new Request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: shown.headers.get('set-cookie')!.split(';')[0]!,
        },
        body: form.toString(),
      }),
    );
    expect(response!.status).toBe(200);
  });

  it('makes the form cookie Secure when the public origin is https, or the request came in over https', async () => {
    const secure = /; Secure$/;
    const behindProxy = await setup({ publicOrigin: 'https://desk.example.com' });
    expect((await behindProxy.open()).response.headers.get('set-cookie')).toMatch(secure);
    const cleared = await behindProxy.posted(refundForm());
    expect(cleared.headers.get('set-cookie')).toMatch(
      /^mcp-resolve-form=; .*Max-Age=0; HttpOnly; SameSite=Strict; Secure$/,
    );
    const overHttps = await setup({}, createAnswerPageStore(), 'https://desk.example.com');
    expect((await overHttps.open()).response.headers.get('set-cookie')).toMatch(secure);
    const plain = await setup({ publicOrigin: 'http://localhost:3000' });
    expect((await plain.open()).response.headers.get('set-cookie')).not.toMatch(/Secure/);
  });

  it('keeps the answer and the link when the store fails to save it: the form again, saying so, then the same answer is taken', async () => {
    const memory = createMemoryAnswerPageBackend();
    let failures = 1;
    const store = createAnswerPageStore({
      backend: {
        ...memory,
        limits: memory.limits,
        answer: (pageId, answer, expiresAt) =>
          failures-- > 0 ? Promise.reject(new Error('SET: OOM')) : memory.answer(pageId, answer, expiresAt),
      },
    });
    const errors: Error[] = [];
    const { posted, open } = await setup({ onerror: (error) => errors.push(error) }, store);
    const failed = await posted(refundForm({ 'field.note': 'Box was crushed' }));
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('5');
    const html = await failed.text();
    expect(html).toContain(NOT_SAVED);
    expect(html).toContain('Box was crushed');
    expect(html).not.toContain('OOM');
    const ref = /\(ref ([0-9a-f]{12})\)/.exec(html)?.[1];
    expect(errors.map((error) => error.message)).toEqual([`answer page failure [ref ${ref}]: SET: OOM`]);
    expect(await store.take(ALICE_CALL)).toBeUndefined();
    expect((await open()).response.status).toBe(200);
    const done = await posted(refundForm({ 'field.note': 'Box was crushed' }));
    expect(done.status).toBe(200);
    expect(await store.take(ALICE_CALL)).toMatchObject({ action: 'accept', content: { note: 'Box was crushed' } });
  });
});
