/**
 * The answer page in a real browser (Debian's Chromium through playwright-core): a person fills and
 * submits the form, and the store holds what an in-band client would have sent; a refused answer
 * comes back with the field's error; a used link, a form without its token and a cross-site post are
 * refused. Set ANSWER_PAGE_SCREENSHOTS to a directory to save screenshots of the page there.
 */
import { join } from 'node:path';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';

import { answerPagePath, createAnswerPageHandler } from '../../src/answerPage/handler.js';
import type { AnswerPageStore } from '../../src/pageStore/store.js';
import { createAnswerPageStore } from '../../src/pageStore/store.js';
import type { FetchServer } from '../fixtures/browser.js';
import { serveFetch, useBrowser } from '../fixtures/browser.js';
import { ALICE_CALL, REFUND_QUESTION, wireSchemaOf } from './helpers.js';

/** The DOM this project's types leave out, as far as the tests reach into the page. */
interface Window {
  getComputedStyle(element: unknown): { backgroundColor: string };
}
interface Removable {
  remove(): void;
}

const browser = useBrowser();
let store: AnswerPageStore;
let server: FetchServer;
let attacker: FetchServer;
let calls = 0;

beforeAll(async () => {
  store = createAnswerPageStore();
  server = await serveFetch(createAnswerPageHandler({ store }));
  // Another site: it serves a page whose form posts to the answer page on its own.
  attacker = await serveFetch(async (request) => {
    const target = new URL(request.url).searchParams.get('target') ?? '';
    const html = `<form id="f" method="post" action="${target}"><input name="action" value="decline"></form><script>document.getElementById('f').submit()</script>`;
    return new Response(html, { headers: { 'content-type': 'text/html' } });
  });
});
afterAll(async () => {
  await server?.close();
  await attacker?.close();
});

/** A fresh page for a fresh call, opened in a new tab. */
async function openPage(question = REFUND_QUESTION): Promise<{ tab: Page; url: string; binding: typeof ALICE_CALL }> {
  calls += 1;
  const binding = { ...ALICE_CALL, argumentsDigest: `args-${calls}` };
  const page = await store.open(binding, question);
  const url = server.origin + answerPagePath(page.pageId);
  const tab = await browser.page();
  const response = await tab.goto(url);
  expect(response?.status()).toBe(200);
  return { tab, url, binding };
}

async function screenshot(tab: Page, name: string): Promise<void> {
  const dir = process.env.ANSWER_PAGE_SCREENSHOTS;
  if (dir !== undefined && dir !== '') await tab.screenshot({ path: join(dir, name), fullPage: true });
}

async function fill(tab: Page, amount: string): Promise<void> {
  await tab.getByLabel('Amount (EUR)').fill(amount);
  await tab.getByLabel('damaged').check();
  await tab.getByLabel('Receipt to').fill('ada@example.com');
}

describe('the answer page in Chromium', () => {
  it('stores a valid answer, styled by the one hashed style sheet and nothing else', async () => {
    const { tab, binding } = await openPage();
    const violations: string[] = [];
    tab.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await fill(tab, '120');
    await tab.getByLabel('Note for the team').fill('Box arrived crushed <b>badly</b>');
    await screenshot(tab, 'answer-page.png');
    const accept = tab.getByRole('button', { name: 'Send answer' });
    expect(
      await accept.evaluate((button) => (globalThis as unknown as Window).getComputedStyle(button).backgroundColor),
    ).toBe('rgb(29, 78, 216)');
    await accept.click();
    await expect.poll(() => tab.locator('h1').textContent()).toBe('Thank you, your answer was saved');
    expect(violations).toEqual([]);
    expect(await store.take(binding)).toEqual({
      action: 'accept',
      content: {
        amount: 120,
        reason: 'damaged',
        note: 'Box arrived crushed <b>badly</b>',
        email: 'ada@example.com',
        notify: true,
      },
    });
    await tab.close();
  });

  it('shows the field error for an answer that does not fit, tied to the field, and takes the fixed one', async () => {
    const { tab, binding } = await openPage();
    await fill(tab, '9000');
    await tab.getByRole('button', { name: 'Send answer' }).click();
    const amount = tab.getByLabel('Amount (EUR)');
    await expect.poll(() => amount.getAttribute('aria-invalid')).toBe('true');
    expect(await amount.getAttribute('aria-describedby')).toBe('field-0-hint field-0-error');
    expect(await tab.locator('#field-0-error').textContent()).toBe('Enter a number from 1 to 500.');
    expect(await tab.getByRole('alert').textContent()).toContain('check "Amount (EUR)"');
    expect(await tab.getByLabel('Receipt to').inputValue()).toBe('ada@example.com');
    await screenshot(tab, 'answer-page-error.png');
    expect(await store.take(binding)).toBeUndefined();
    await amount.fill('80');
    await tab.getByRole('button', { name: 'Send answer' }).click();
    await expect.poll(() => tab.locator('h1').textContent()).toBe('Thank you, your answer was saved');
    expect(await store.take(binding)).toMatchObject({ action: 'accept', content: { amount: 80 } });
    await tab.close();
  });

  it('keeps the schema: says what a pattern wants, and reads a date and time typed in the browser as RFC 3339', async () => {
    const booking = z.object({
      ticket: z.string().min(6).max(6).meta({ title: 'Ticket number' }),
      seats: z.number().int().min(1).max(10).meta({ title: 'Seats' }),
      when: z.iso.datetime().meta({ title: 'When' }),
    });
    const wire = wireSchemaOf(booking);
    const ticket = { ...(wire.properties as Record<string, object>).ticket, pattern: '^T-\\d{4}$' };
    const requestedSchema = { ...wire, properties: { ...(wire.properties as object), ticket } };
    const { tab, binding } = await openPage({ message: 'Book seats?', requestedSchema });
    await tab.getByLabel('Ticket number').fill('123456');
    await tab.getByLabel('Seats').fill('3');
    await tab.getByLabel('When').fill('2026-07-28T14:30');
    await tab.getByRole('button', { name: 'Send answer' }).click();
    await expect.poll(() => tab.locator('#field-0-error').textContent()).toBe('It must look like T-1234.');
    await screenshot(tab, 'answer-page-pattern.png');
    await tab.getByLabel('Ticket number').fill('T-0042');
    await tab.getByRole('button', { name: 'Send answer' }).click();
    await expect.poll(() => tab.locator('h1').textContent()).toBe('Thank you, your answer was saved');
    expect(await store.take(binding)).toEqual({
      action: 'accept',
      content: { ticket: 'T-0042', seats: 3, when: '2026-07-28T14:30:00Z' },
    });
    await tab.close();
  });

  it('stores a decline, with the required fields left empty', async () => {
    const { tab, binding } = await openPage();
    await tab.getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => tab.locator('h1').textContent()).toBe('You declined');
    expect(await store.take(binding)).toEqual({ action: 'decline' });
    await tab.close();
  });

  it('says a used link is no longer valid, and takes no second answer from another tab of the page', async () => {
    const { tab, url, binding } = await openPage();
    const other = await tab.context().newPage();
    await other.goto(url);
    await fill(tab, '50');
    await tab.getByRole('button', { name: 'Send answer' }).click();
    await expect.poll(() => tab.locator('h1').textContent()).toBe('Thank you, your answer was saved');
    await other.getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => other.locator('h1').textContent()).toBe('This link is no longer valid');
    await tab.goBack();
    expect(await tab.locator('h1').textContent()).toBe('This link is no longer valid');
    const again = await tab.goto(url);
    expect(again?.status()).toBe(404);
    expect(await store.take(binding)).toMatchObject({ action: 'accept', content: { amount: 50 } });
    await other.close();
    await tab.close();
  });

  it('takes the answer from either of two tabs of the same page', async () => {
    const { tab, url, binding } = await openPage();
    const other = await tab.context().newPage();
    await other.goto(url);
    await tab.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => tab.locator('h1').textContent()).toBe('You cancelled');
    expect(await store.take(binding)).toEqual({ action: 'cancel' });
    await other.close();
    await tab.close();
  });

  it('refuses a form sent without its token', async () => {
    const { tab, binding } = await openPage();
    await fill(tab, '50');
    await tab.locator('input[name="form-token"]').evaluate((input) => (input as unknown as Removable).remove());
    await tab.getByRole('button', { name: 'Send answer' }).click();
    await expect.poll(() => tab.locator('h1').textContent()).toBe('This answer was not accepted');
    expect(await store.take(binding)).toBeUndefined();
    await tab.close();
  });

  it('refuses a post another site makes from the same browser', async () => {
    const { tab, url, binding } = await openPage();
    const evil = attacker.origin.replace('127.0.0.1', 'localhost');
    const response = tab.waitForResponse(
      (candidate) => candidate.url() === url && candidate.request().method() === 'POST',
    );
    await tab.goto(`${evil}/?target=${encodeURIComponent(url)}`);
    expect((await response).status()).toBe(403);
    expect(await store.take(binding)).toBeUndefined();
    // The refusal's page loads before the tab closes (a tab closed mid-navigation can hang Chromium).
    await tab.waitForURL(url);
    await tab.close();
  });
});
