/**
 * The refund desk's questions as app-rendered elicitations (SEP-3118), in Chromium: a desk built
 * with `apps` on, served by `serveHttp`, asked by the reference host (test/fixtures/appHost.ts:
 * ext-apps' `AppBridge` with the `elicitation` host capability), which declares form elicitation
 * and the Apps extension with `elicitation`, so the server attaches its question app to each form
 * it asks; the host renders the app for each request, the person answers there, and the result is
 * compared with the same call answered on a native form. Both eras. The same story in the MCP
 * Inspector v2 is scripts/inspector-apps.ts (over this project's time budget).
 */
import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { Era } from '../../src/context.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { connectHttp } from '../../src/testing/index.js';
import type { AppHost } from '../fixtures/appHost.js';
import { APPS_AND_FORMS, openChat, startAppHost } from '../fixtures/appHost.js';
import { useBrowser } from '../fixtures/browser.js';
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

describe.each(ERAS)('the refund desk as app-rendered elicitations (%s era)', (era) => {
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
