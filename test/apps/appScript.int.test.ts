/**
 * The question app's script in Chromium, under the reference host (test/fixtures/appHost.ts): it
 * sends on a button's click (Enter in a field clicks the first), never by submitting the form, so
 * it works in a host whose app sandbox is `allow-scripts` only (the MCP Apps specification's
 * example), as in one that also allows forms, where the form is never submitted natively.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { connectHttp } from '../../src/testing/index.js';
import type { AppHost, RenderedApp } from '../fixtures/appHost.js';
import { APPS_ONLY, openChat, SCRIPTS_ONLY, startAppHost } from '../fixtures/appHost.js';
import { useBrowser } from '../fixtures/browser.js';
import { refundDesk } from './helpers.js';

const browser = useBrowser();
let host: AppHost;
let desk: HttpServerHandle;

beforeAll(async () => {
  host = await startAppHost();
  desk = await serveHttp(refundDesk().server);
});
afterAll(async () => {
  await Promise.all([desk?.close(), host?.close()]);
});

/** How the person sends: a click on "Send answer", or Enter in the last field. */
const SENDS = {
  click: (app: RenderedApp) => app.frame.getByRole('button', { name: 'Send answer' }).click(),
  Enter: (app: RenderedApp) => app.frame.getByLabel('Reason').press('Enter'),
};

describe.each([SCRIPTS_ONLY, 'allow-scripts allow-forms'])('the question app in a "%s" sandbox', (sandbox) => {
  it.each(Object.keys(SENDS) as (keyof typeof SENDS)[])('sends the answer on %s, and the call goes on', async (how) => {
    const connection = await connectHttp(desk.url, { era: 'modern', capabilities: APPS_ONLY });
    try {
      const chat = await openChat(await browser.page(), host, connection.client, { sandbox });
      const { app } = await chat.call('refund', { order_id: 'ORD-1' });
      await app!.frame.getByLabel('Amount').fill('12');
      await app!.frame.getByLabel('Reason').fill(how);
      await SENDS[how](app!);
      const rerun = () => chat.relayed.find((call) => call.name === 'refund')?.result as CallToolResult | undefined;
      await expect.poll(() => rerun()?.content).toEqual([{ type: 'text', text: `refunded 12 for ${how}` }]);
      // The app's own document is still shown (a native submission would have replaced it).
      await expect.poll(() => app!.frame.locator('body').innerText()).toContain(`refunded 12 for ${how}`);
    } finally {
      await connection.close();
    }
  });
});
