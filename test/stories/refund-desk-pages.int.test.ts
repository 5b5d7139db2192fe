/**
 * The refund desk's whole story through answer pages, in Chromium: a desk built with `answerPage`
 * on, served by `serveHttp`, a real SDK client on each era, and a person who answers on the page the server hosts. A
 * client that declares only URL elicitation is sent to the page by a URL question (the test opens
 * it, answers there, then accepts the URL question); a client with no elicitation gets a tool
 * result with the link, and calling the tool again with the same arguments goes on.
 */
import type { ElicitRequest } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import type { Era } from '../../src/context.js';
import { connectHttp } from '../../src/testing/index.js';
import { useBrowser } from '../fixtures/browser.js';
import { answerDeskPage, ARGS, expectRefunded, refundByLinks, RESTOCK, SCOPE } from './deskPages.js';

const browser = useBrowser();
let served: HttpServerHandle;

beforeAll(async () => {
  // The story's callers are anonymous: a 2026-07-28 client without elicitation gets its link only so.
  served = await serveHttp(createRefundDesk({ answerPage: { anonymousLinksShareAnswers: true } }));
});
afterAll(async () => {
  await served?.close();
});

/** The person opens `url` in Chromium and answers the desk's question there. */
async function answerOnPage(url: string, asked: string[]): Promise<void> {
  await answerDeskPage(await browser.page(), url, asked);
}

const ERAS: Era[] = ['modern', 'legacy'];

describe.each(ERAS)('the refund desk through answer pages (%s era)', (era) => {
  it('completes for a client that declares only URL elicitation', async () => {
    const asked: string[] = [];
    const messages: string[] = [];
    const connection = await connectHttp(served.url, {
      era,
      capabilities: { elicitation: { url: {} } },
      elicit: async (params: ElicitRequest['params']) => {
        expect(params.mode).toBe('url');
        if (params.mode !== 'url') return { action: 'decline' };
        messages.push(params.message);
        await answerOnPage(params.url, asked);
        return { action: 'accept' };
      },
    });
    try {
      await expectRefunded(connection, asked);
      expect(messages).toEqual([SCOPE, RESTOCK]);
    } finally {
      await connection.close();
    }
  });

  it('completes for a client without elicitation: a link in the result, then the same call again', async () => {
    const asked: string[] = [];
    const connection = await connectHttp(served.url, { era, capabilities: {} });
    try {
      await refundByLinks(connection, asked, (url) => answerOnPage(url, asked));
      // The call that ended used the page answers up: the same call once more asks again.
      const again = await connection.client.callTool({ name: 'refund_order', arguments: ARGS });
      expect(again.isError).toBe(true);
      expect(JSON.stringify(again.content)).toContain(`The question: ${SCOPE}`);
    } finally {
      await connection.close();
    }
  });
});
