/**
 * The refund desk through answer pages behind real login, in Chromium: `serveHttp` with
 * `authenticate` (the SDK's `requireBearerAuth`) on MCP, and the site's own session cookie on the
 * page (`browserUser` returns the person's `AuthInfo`). Alice's client holds a bearer token; the
 * person's browser holds only the session cookie the test sets in it. Bob, signed in too, gets 403
 * on Alice's page.
 */
import type { ElicitRequest } from '@modelcontextprotocol/client';
import { requireBearerAuth } from '@modelcontextprotocol/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { Era } from '../../src/context.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { connectHttp } from '../../src/testing/index.js';
import { useBrowser } from '../fixtures/browser.js';
import { answerDeskPage, expectRefunded, refundByLinks } from './deskPages.js';
import { browserUser, SESSION_COOKIE, verifier } from './deskLogin.js';

const browser = useBrowser();
let served: HttpServerHandle;

beforeAll(async () => {
  served = await serveHttp(createRefundDesk({ answerPage: { browserUser } }), {
    authenticate: requireBearerAuth({ verifier }),
  });
});
afterAll(async () => {
  await served?.close();
});

/** A tab of a browser signed in to the site as `person` (the session cookie set on the server's origin). */
async function signedIn(person: string): Promise<Page> {
  const tab = await browser.page();
  await tab.context().addCookies([{ name: SESSION_COOKIE, value: person, url: served.url.origin }]);
  return tab;
}

/** Bob, signed in, opens `url`: the page refuses him. */
async function bobIsRefused(url: string): Promise<void> {
  const tab = await signedIn('bob');
  try {
    expect((await tab.goto(url))?.status()).toBe(403);
    expect(await tab.locator('h1').textContent()).toBe('This question is not for this account');
  } finally {
    await tab.close();
  }
}

const ERAS: Era[] = ['modern', 'legacy'];
const AS_ALICE = { requestInit: { headers: { authorization: 'Bearer alice-token' } } };

describe.each(ERAS)('the refund desk through answer pages behind login (%s era)', (era) => {
  it('completes for a URL-only client: Alice answers on the page, Bob is refused', async () => {
    const asked: string[] = [];
    const connection = await connectHttp(served.url, {
      era,
      capabilities: { elicitation: { url: {} } },
      transportOptions: AS_ALICE,
      elicit: async (params: ElicitRequest['params']) => {
        if (params.mode !== 'url') return { action: 'decline' };
        await bobIsRefused(params.url);
        await answerDeskPage(await signedIn('alice'), params.url, asked);
        return { action: 'accept' };
      },
    });
    try {
      await expectRefunded(connection, asked);
    } finally {
      await connection.close();
    }
  });

  it('completes for a client without elicitation: a link in the result, then the same call again', async () => {
    const asked: string[] = [];
    const connection = await connectHttp(served.url, { era, capabilities: {}, transportOptions: AS_ALICE });
    try {
      await refundByLinks(connection, asked, async (url) => answerDeskPage(await signedIn('alice'), url, asked));
    } finally {
      await connection.close();
    }
  });
});
