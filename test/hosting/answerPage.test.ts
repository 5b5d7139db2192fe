/**
 * The `answerPage` hosting option: the host serves pages under their path beside the MCP path, and
 * hands its pages to the server source; without the option nothing changes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createDualEraHandler } from '../../src/hosting/index.js';
import { ANSWER_PAGES } from '../../src/hosting/source.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { elicit } from '../../src/questions/markers.js';
import type { FormPages } from '../../src/questions/pages.js';
import { renderQuestion } from '../../src/questions/render.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';

const ask = elicit('Refund ORD-1?', z.object({ amount: z.number() }));
const QUESTION = { key: 'confirm', label: 'confirm', ask, rendered: renderQuestion(ask, 'confirm') };
const CALL = { principal: undefined, tool: 'refund', argumentsDigest: 'args' };

/** A server source that keeps the pages its host hands it. */
function pagedSource() {
  const held: { pages?: FormPages } = {};
  return { held, source: { createServer: askNameServer, [ANSWER_PAGES]: (pages: FormPages) => (held.pages = pages) } };
}

const handles: HttpServerHandle[] = [];
afterAll(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

describe('the answerPage option', () => {
  it('serves pages under their path and hands the pages to the server', async () => {
    const { held, source } = pagedSource();
    const handler = createDualEraHandler(source, { answerPage: {} });
    const url = await held.pages!.open(CALL, QUESTION, 'http://localhost:3000/mcp');
    expect(url).toMatch(/^http:\/\/localhost:3000\/mcp-resolve\/answer\/[\w-]{22}$/);
    const page = await handler.fetch(new Request(url, { headers: { host: 'localhost:3000' } }));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(await page.text()).toContain('Refund ORD-1?');
    const unknown = await handler.fetch(
      new Request('http://localhost:3000/mcp-resolve/answer/nope', { headers: { host: 'localhost:3000' } }),
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('This link is no longer valid');
    await handler.close();
  });

  it('keeps the Host check, and the Origin check of any Origin but null, for pages', async () => {
    const { held, source } = pagedSource();
    const handler = createDualEraHandler(source, { answerPage: {} });
    const url = await held.pages!.open(CALL, QUESTION, 'http://localhost:3000/mcp');
    const get = (headers: Record<string, string>) => handler.fetch(new Request(url, { headers }));
    expect((await get({ host: 'evil.example:3000' })).status).toBe(403);
    expect((await get({ host: 'localhost:3000', origin: 'http://evil.example' })).status).toBe(403);
    expect((await get({ host: 'localhost:3000', origin: 'null' })).status).toBe(200);
    await handler.close();
  });

  it('links on the public origin when one is set', async () => {
    const { held, source } = pagedSource();
    const handler = createDualEraHandler(source, {
      answerPage: { publicOrigin: 'https://mcp.example.com', path: '/answers' },
    });
    expect(await held.pages!.open(CALL, QUESTION, 'http://10.0.0.5:3000/mcp')).toMatch(
      /^https:\/\/mcp\.example\.com\/answers\/[\w-]{22}$/,
    );
    await handler.close();
  });

  it('changes nothing when it is not set', async () => {
    const { held, source } = pagedSource();
    const handler = createDualEraHandler(source);
    expect(held.pages).toBeUndefined();
    const response = await handler.fetch(
      new Request('http://localhost:3000/mcp-resolve/answer/nope', { headers: { host: 'localhost:3000' } }),
    );
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/json/);
    await handler.close();
  });

  it('takes a form post through serveHttp', async () => {
    const { held, source } = pagedSource();
    const served = await serveHttp(source, { answerPage: {} });
    handles.push(served);
    const url = await held.pages!.open(CALL, QUESTION, served.url.href);
    const shown = await fetch(url);
    const token = /name="form-token" value="([^"]*)"/.exec(await shown.text())![1]!;
    const cookie = shown.headers.get('set-cookie')!.split(';')[0]!;
    const body = new URLSearchParams({ 'form-token': token, 'field.amount': '42', action: 'accept' });
    const posted = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: served.url.origin },
      body,
    });
    expect(posted.status).toBe(200);
    expect(await held.pages!.take(CALL, QUESTION)).toEqual({ action: 'accept', content: { amount: 42 } });
  });
});
