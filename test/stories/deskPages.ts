/** The refund desk's ORD-7002 story as the answer-page tests drive it, and the person who answers on the page. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The call's arguments: a multi-item order that arrived broken. */
export const ARGS = { order_id: 'ORD-7002', reason: 'arrived broken' };
/** The receipt once the whole order is refunded and its items restocked. */
export const RECEIPT = { order_id: 'ORD-7002', refunded_cents: 4800, restocked: true, reason: 'arrived broken' };
/** The desk's two questions, in the order it asks them. */
export const SCOPE =
  'ORD-7002 has several items (enamel-mug, canvas-tote, sticker-pack). Refund the whole order, or one SKU?';
export const RESTOCK = 'The refund includes physical items (enamel-mug, canvas-tote). Return them to stock?';

/**
 * The person opens `url` in `tab` and answers the desk's question there (whole order; back to
 * stock), recording in `asked` which question it was; the tab is closed afterwards.
 */
export async function answerDeskPage(tab: Page, url: string, asked: string[]): Promise<void> {
  try {
    expect((await tab.goto(url))?.status()).toBe(200);
    const body = (await tab.locator('body').textContent()) ?? '';
    if (body.includes('Refund the whole order')) {
      asked.push('scope');
      await tab.getByLabel('Refund the whole order').check();
    } else {
      asked.push('restock');
      await tab.getByLabel('Return the items to stock').check();
    }
    await tab.getByRole('button', { name: 'Send answer' }).click();
    await expect.poll(() => tab.locator('h1').textContent()).toBe('Thank you, your answer was saved');
  } finally {
    await tab.close();
  }
}
