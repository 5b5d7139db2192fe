/**
 * The `answerPage` option in Chromium: a page served by `serveHttp` beside the MCP path is filled
 * and submitted through the host's Host/Origin guard, and the pages the host handed the server
 * give the answer to the call that asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { ANSWER_PAGES } from '../../src/hosting/source.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { elicit } from '../../src/questions/markers.js';
import type { FormPages } from '../../src/questions/pages.js';
import { renderQuestion } from '../../src/questions/render.js';
import { useBrowser } from '../fixtures/browser.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';

const ask = elicit('Refund ORD-1?', z.object({ amount: z.number().max(500).meta({ title: 'Amount' }) }));
const QUESTION = { key: 'confirm', label: 'confirm', ask, rendered: renderQuestion(ask, 'confirm') };
const CALL = { principal: undefined, tool: 'refund', argumentsDigest: 'args' };

const browser = useBrowser();
const held: { pages?: FormPages } = {};
let served: HttpServerHandle;

beforeAll(async () => {
  const source = { createServer: askNameServer, [ANSWER_PAGES]: (pages: FormPages) => (held.pages = pages) };
  served = await serveHttp(source, { answerPage: {} });
});
afterAll(async () => {
  await served?.close();
});

describe('answer pages served by serveHttp', () => {
  it('take an answer from Chromium through the Host and Origin guard', async () => {
    const url = await held.pages!.open(CALL, QUESTION, served.url.href);
    const tab = await browser.page();
    expect((await tab.goto(url))?.status()).toBe(200);
    await tab.getByLabel('Amount').fill('75');
    const posted = tab.waitForResponse((response) => response.request().method() === 'POST');
    await tab.getByRole('button', { name: 'Send answer' }).click();
    // Chromium sends `Origin: null` here (the page's Referrer-Policy is no-referrer): the host takes it.
    const response = await posted;
    expect(response.status()).toBe(200);
    expect(await response.request().headerValue('origin')).toBe('null');
    await expect.poll(() => tab.locator('h1').textContent()).toBe('Thank you, your answer was saved');
    expect(await held.pages!.take(CALL, QUESTION)).toEqual({ action: 'accept', content: { amount: 75 } });
    expect((await tab.goto(url))?.status()).toBe(404);
    await tab.close();
  });
});
