/**
 * The refund desk's questions as app-rendered elicitations (SEP-3118), in Chromium: a desk built
 * with `apps` on, served by `serveHttp`, asked by two hosts that declare form elicitation and the
 * Apps extension with `elicitation`, so the server attaches its question app to each form it asks:
 * - the MCP Inspector v2 (the devDependency, 2.12.0), whose web UI renders the app in its
 *   "Answering through the server-provided MCP App" dialog and validates what the app returns;
 * - the reference host (test/fixtures/appHost.ts: ext-apps' `AppBridge` with the `elicitation`
 *   host capability), where the result is compared with the same call answered on a native form.
 * Both eras. Set APP_SCREENSHOTS to a directory to save a screenshot of the Inspector's dialog there.
 */
import { join } from 'node:path';

import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { Era } from '../../src/context.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { connectHttp } from '../../src/testing/index.js';
import type { AppHost } from '../fixtures/appHost.js';
import { APPS_AND_FORMS, openChat, startAppHost } from '../fixtures/appHost.js';
import { useBrowser } from '../fixtures/browser.js';
import { startInspector } from '../fixtures/inspector.js';
import { ARGS, RECEIPT, RESTOCK, SCOPE } from './deskPages.js';

const browser = useBrowser();
let host: AppHost;
let desk: HttpServerHandle;

beforeAll(async () => {
  host = await startAppHost();
  desk = await serveHttp(createRefundDesk({ apps: {} }));
});
afterAll(async () => {
  await Promise.all([desk?.close(), host?.close()]);
});

const ERAS: Era[] = ['modern', 'legacy'];
const APP = 'ui://mcp-resolve/question';

/** The person answers the app's form: tick the question's box and send. */
async function tickAndSend(frame: FrameLocator, label: string): Promise<void> {
  await frame.getByLabel(label).check();
  await frame.getByRole('button', { name: 'Send answer' }).click();
}

async function screenshot(tab: Page, name: string): Promise<void> {
  const dir = process.env.APP_SCREENSHOTS;
  if (dir !== undefined && dir !== '') await tab.screenshot({ path: join(dir, name) });
}

describe.each(ERAS)('the refund desk as app-rendered elicitations (%s era)', (era) => {
  it('completes in the MCP Inspector, each question answered in the app it renders', async () => {
    const inspector = await startInspector(desk.url, era);
    try {
      const tab = await browser.page();
      await tab.setViewportSize({ width: 1280, height: 900 });
      await tab.goto(inspector.url);
      await tab.locator('.mantine-Switch-track').first().click();
      await tab.getByText('Connected', { exact: true }).waitFor();
      await tab.getByText('Tools', { exact: true }).first().click();
      await tab.getByText('refund_order').first().click();
      await tab.getByRole('textbox', { name: 'order_id' }).fill(ARGS.order_id);
      await tab.getByRole('textbox', { name: 'reason' }).fill(ARGS.reason);
      await tab.getByRole('button', { name: 'Execute Tool' }).click();

      const dialog = tab.getByTestId('app-elicitation');
      // The Inspector's dialog holds its sandbox proxy, which holds the app.
      const app = dialog.frameLocator('iframe').frameLocator('iframe');
      await expect.poll(() => dialog.getAttribute('aria-label')).toContain(`${SCOPE} — rendered by ${APP}`);
      await app.getByLabel('Refund the whole order').waitFor();
      await screenshot(tab, 'question-app-elicitation.png');
      await tickAndSend(app, 'Refund the whole order');
      await expect.poll(() => dialog.getAttribute('aria-label')).toContain(`${RESTOCK} — rendered by ${APP}`);
      await tickAndSend(app, 'Return the items to stock');

      await tab.getByRole('button', { name: 'Close results' }).waitFor();
      const body = await tab.locator('body').innerText();
      const shown = body.slice(body.indexOf('Results'));
      expect(shown).toContain('"refunded_cents": 4800');
      expect(shown).toContain('"restocked": true');
      expect(await dialog.count()).toBe(0);
    } finally {
      await inspector.close();
    }
  });

  it('completes with the reference host, and gives what a native form gives', async () => {
    const answers: ElicitResult[] = [
      { action: 'accept', content: { full: true } },
      { action: 'accept', content: { restock: true } },
    ];
    const onForm = [...answers];
    const native = await connectHttp(desk.url, {
      era,
      capabilities: { elicitation: { form: {} } },
      elicit: async () => onForm.shift() ?? { action: 'cancel' },
    });
    let expected: CallToolResult;
    try {
      expected = await native.client.callTool({ name: 'refund_order', arguments: ARGS });
    } finally {
      await native.close();
    }
    expect(expected.structuredContent).toEqual(RECEIPT);

    const tab = await browser.page();
    const asked: string[] = [];
    let chat: Awaited<ReturnType<typeof openChat>> | undefined;
    const connection = await connectHttp(desk.url, {
      era,
      capabilities: APPS_AND_FORMS,
      elicit: async (params: ElicitRequest['params']) => {
        asked.push(params.message);
        expect(params.mode ?? 'form').toBe('form');
        expect(params._meta?.ui).toMatchObject({ resourceUri: APP });
        const label = params.message === SCOPE ? 'Refund the whole order' : 'Return the items to stock';
        return chat!.elicit(params, (app) => tickAndSend(app.frame, label));
      },
    });
    try {
      chat = await openChat(tab, host, connection.client);
      expect(await connection.client.callTool({ name: 'refund_order', arguments: ARGS })).toEqual(expected);
      expect(asked).toEqual([SCOPE, RESTOCK]);
    } finally {
      await connection.close();
    }
  });
});
