/**
 * The refund desk's questions asked inside the chat, in Chromium: a desk built with `apps` on (and
 * answer pages, the fallback), served by `serveHttp`, and the reference MCP Apps host
 * (test/fixtures/appHost.ts: ext-apps' `AppBridge` rendering the server's `ui://` resource in a
 * double-iframe sandbox, the official client relaying the app's requests). The client declares the
 * Apps extension and no elicitation, so each question is answered in the app the host shows with
 * the tool's result; the app re-runs the call through the host and shows its outcome, and what the
 * model receives is compared with the same call answered in-band. Both eras.
 * Set APP_SCREENSHOTS to a directory to save a screenshot of the question as an in-chat app there.
 */
import { join } from 'node:path';

import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createGuidedRefundDesk } from '../../examples/stories/refund-desk/guided.js';
import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { Era } from '../../src/context.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import type { TestConnection } from '../../src/testing/index.js';
import { connectHttp } from '../../src/testing/index.js';
import type { AppHost, Chat, RenderedApp } from '../fixtures/appHost.js';
import { APPS_ONLY, openChat, startAppHost } from '../fixtures/appHost.js';
import { useBrowser } from '../fixtures/browser.js';
import { answerDeskPage, ARGS, RECEIPT, refundByLinks } from './deskPages.js';

const browser = useBrowser();
let host: AppHost;
let desk: HttpServerHandle;
let guided: HttpServerHandle;

beforeAll(async () => {
  host = await startAppHost();
  // The story's callers are anonymous: a client without the extension gets its link only so.
  desk = await serveHttp(createRefundDesk({ apps: {}, answerPage: { anonymousLinksShareAnswers: true } }));
  guided = await serveHttp(createGuidedRefundDesk({ apps: {} }));
});
afterAll(async () => {
  await Promise.all([desk?.close(), guided?.close(), host?.close()]);
});

const ERAS: Era[] = ['modern', 'legacy'];
/** The guided desk's call, its answers (one item, not restocked), and what it says to a bad answer. */
const WRONG_COLOUR = { order_id: 'ORD-7002', reason: 'wrong colour' };
const GUIDED_ANSWERS: ElicitResult[] = [
  { action: 'accept', content: { full: false, sku: 'canvas-tote' } },
  { action: 'decline' },
];
const NO_ITEM = "Pick the item to refund, or tick 'Refund the whole order'.";
const ITEM_ERROR = 'Check this answer: it does not fit the form.';

/** What the person does with one question: tick a box and send, decline, or cancel. */
type Answer = { readonly tick: string } | { readonly button: 'Decline' | 'Cancel' };

/** The call answered in-band by a client that shows forms: the result the in-chat one must equal. */
async function inBand(url: URL, era: Era, answers: readonly ElicitResult[], args = ARGS): Promise<CallToolResult> {
  const queue = [...answers];
  const connection = await connectHttp(url, {
    era,
    capabilities: { elicitation: { form: {} } },
    elicit: async (_params: ElicitRequest['params']) => queue.shift() ?? { action: 'cancel' },
  });
  try {
    const result = await connection.client.callTool({ name: 'refund_order', arguments: args });
    expect(queue).toEqual([]);
    return result;
  } finally {
    await connection.close();
  }
}

/** A client with the Apps extension and no elicitation, on a fresh host tab. */
async function chatOn(url: URL, era: Era): Promise<{ connection: TestConnection; chat: Chat; tab: Page }> {
  const connection = await connectHttp(url, { era, capabilities: APPS_ONLY });
  try {
    const tab = await browser.page();
    return { connection, chat: await openChat(tab, host, connection.client), tab };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

/** The person answers the question the app shows now. */
async function answer(app: RenderedApp, with_: Answer): Promise<void> {
  if ('tick' in with_) {
    await app.frame.getByLabel(with_.tick).check();
    await app.frame.getByRole('button', { name: 'Send answer' }).click();
  } else {
    await app.frame.getByRole('button', { name: with_.button }).click();
  }
}

/** The last result of the desk's tool the app got through the host (what the model is given). */
function lastRun(chat: Chat): unknown {
  return chat.relayed.filter((call) => call.name === 'refund_order').at(-1)?.result;
}

async function screenshot(tab: Page, name: string): Promise<void> {
  const dir = process.env.APP_SCREENSHOTS;
  // The host page's chat column: the app as a person sees it under the tool call.
  if (dir !== undefined && dir !== '') await tab.locator('main').screenshot({ path: join(dir, name) });
}

describe.each(ERAS)('the refund desk asked inside the chat (%s era)', (era) => {
  it('declares the app only to a client with the Apps extension, and its answer tool only to the app', async () => {
    const { connection, chat } = await chatOn(desk.url, era);
    try {
      const tools = await chat.tools();
      const refund = tools.find((tool) => tool.name === 'refund_order');
      expect(refund?._meta?.ui).toMatchObject({ resourceUri: 'ui://mcp-resolve/question' });
      const answerTool = tools.find((tool) => tool.name === 'mcp_resolve_answer');
      expect(answerTool?._meta?.ui).toMatchObject({ visibility: ['app'] });
    } finally {
      await connection.close();
    }
  });

  it('completes the whole story in the app, and the model gets what an in-band answer gives', async () => {
    const expected = await inBand(desk.url, era, [
      { action: 'accept', content: { full: true } },
      { action: 'accept', content: { restock: true } },
    ]);
    expect(expected.structuredContent).toEqual(RECEIPT);
    const { connection, chat, tab } = await chatOn(desk.url, era);
    try {
      const { result, app } = await chat.call('refund_order', ARGS);
      expect(result.structuredContent).not.toEqual(RECEIPT);
      expect(app).toBeDefined();
      await app!.frame.getByLabel('Refund the whole order').waitFor();
      await screenshot(tab, 'question-app.png');
      await answer(app!, { tick: 'Refund the whole order' });
      await answer(app!, { tick: 'Return the items to stock' });
      await expect.poll(() => lastRun(chat)).toEqual(expected);
      await expect.poll(() => app!.frame.locator('body').innerText()).toContain('4800');
      // The app gives the model the outcome as the Apps specification provides: as model context.
      // It is sent after the result is shown, so it may still be on its way through the frames.
      const context = () => chat.events.filter((event) => event.method === 'ui/update-model-context').at(-1);
      await expect
        .poll(() => context()?.params)
        .toEqual({ content: expected.content, structuredContent: expected.structuredContent });
    } finally {
      await connection.close();
    }
  });

  it.each([
    ['Decline', 'decline'],
    ['Cancel', 'cancel'],
  ] as const)('%s in the app ends the call as %s does in-band', async (button, action) => {
    const expected = await inBand(desk.url, era, [{ action }]);
    expect(expected.isError).toBe(true);
    const { connection, chat } = await chatOn(desk.url, era);
    try {
      const { app } = await chat.call('refund_order', ARGS);
      await answer(app!, { button });
      await expect.poll(() => lastRun(chat)).toEqual(expected);
    } finally {
      await connection.close();
    }
  });

  it("asks again, in the app, an answer that does not fit, with the field's error; the fixed answer goes on", async () => {
    const expected = await inBand(guided.url, era, GUIDED_ANSWERS, WRONG_COLOUR);
    const { connection, chat } = await chatOn(guided.url, era);
    try {
      const { app } = await chat.call('refund_order', WRONG_COLOUR);
      const { frame } = app!;
      // An item the order does not have (a tampered pick-list): the server refuses it, naming the field.
      await frame.getByLabel('canvas-tote ($24.00)').evaluate((input: { value: string }) => {
        input.value = 'mystery-hat';
      });
      await frame.getByLabel('canvas-tote ($24.00)').check();
      await frame.getByRole('button', { name: 'Send answer' }).click();
      const item = frame.getByRole('group', { name: 'Item to refund' });
      await expect.poll(() => item.getAttribute('aria-describedby')).toContain('-error');
      const error = (await item.getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('-error'))!;
      expect(await frame.locator(`#${error}`).innerText()).toBe(ITEM_ERROR);
      expect(chat.relayed.filter((call) => call.name === 'refund_order')).toEqual([]);
      await frame.getByLabel('canvas-tote ($24.00)').check();
      await frame.getByRole('button', { name: 'Send answer' }).click();
      await answer(app!, { button: 'Decline' });
      await expect.poll(() => lastRun(chat)).toEqual(expected);
    } finally {
      await connection.close();
    }
  });

  it("asks again, in the app, an answer the desk's own check refuses, showing its reason", async () => {
    const { connection, chat } = await chatOn(guided.url, era);
    try {
      const { app } = await chat.call('refund_order', WRONG_COLOUR);
      const { frame } = app!;
      // A partial refund that names no item passes the form; the desk's check refuses it.
      await frame.getByRole('button', { name: 'Send answer' }).click();
      await expect.poll(() => frame.locator('body').innerText()).toContain(NO_ITEM);
      await frame.getByLabel('canvas-tote ($24.00)').check();
      await frame.getByRole('button', { name: 'Send answer' }).click();
      await answer(app!, { button: 'Decline' });
      await expect
        .poll(() => (lastRun(chat) as CallToolResult).structuredContent)
        .toMatchObject({ refunded_cents: 2400 });
    } finally {
      await connection.close();
    }
  });

  it('takes one answer per question: a second app showing the same question says it is closed', async () => {
    const { connection, chat } = await chatOn(desk.url, era);
    try {
      const { result, app: first } = await chat.call('refund_order', ARGS);
      const second = await chat.render('refund_order', ARGS, result);
      await second.frame.getByLabel('Refund the whole order').waitFor();
      await answer(first!, { tick: 'Refund the whole order' });
      await first!.frame.getByLabel('Return the items to stock').waitFor();
      await second.frame.getByLabel('Refund the whole order').uncheck();
      await second.frame.getByRole('button', { name: 'Send answer' }).click();
      await expect.poll(() => second.frame.locator('body').innerText()).toContain('This question is closed');
      // Nothing from the second app reached the call: the first goes on to the receipt.
      await answer(first!, { tick: 'Return the items to stock' });
      await expect.poll(() => (lastRun(chat) as CallToolResult | undefined)?.structuredContent).toEqual(RECEIPT);
    } finally {
      await connection.close();
    }
  });

  it('falls back to the answer page for a client without the extension', async () => {
    const connection = await connectHttp(desk.url, { era, capabilities: {} });
    try {
      const refund = (await connection.client.listTools()).tools.find((tool) => tool.name === 'refund_order');
      expect(refund?._meta?.ui).toBeUndefined();
      const asked: string[] = [];
      await refundByLinks(connection, asked, async (url) => answerDeskPage(await browser.page(), url, asked));
    } finally {
      await connection.close();
    }
  });
});
