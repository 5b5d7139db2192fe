/** The refund desk's ORD-7002 story as the answer-page tests drive it, and the person who answers on the page. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

import type { TestConnection } from '../../src/testing/index.js';

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

/** Calls the desk on `connection` and expects the receipt, both questions answered on pages. */
export async function expectRefunded(connection: TestConnection, asked: readonly string[]): Promise<void> {
  const result = await connection.client.callTool({ name: 'refund_order', arguments: ARGS });
  expect(result.isError).not.toBe(true);
  expect(result.structuredContent).toEqual(RECEIPT);
  expect(asked).toEqual(['scope', 'restock']);
}

/**
 * The desk on a client without elicitation: each call answers with a link to the next question,
 * which `open` answers on its page; then the same call once more refunds.
 */
export async function refundByLinks(
  connection: TestConnection,
  asked: readonly string[],
  open: (url: string) => Promise<void>,
): Promise<void> {
  for (const question of [SCOPE, RESTOCK]) {
    const result = await connection.client.callTool({ name: 'refund_order', arguments: ARGS });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ type: string; text?: string }>)[0]?.text ?? '';
    expect(text).toContain('Show them this link and ask them to open it');
    expect(text).toContain(`The question: ${question}`);
    const url = /https?:\/\/\S+/.exec(text)?.[0];
    expect(url).toBeDefined();
    await open(url!);
  }
  await expectRefunded(connection, asked);
}
