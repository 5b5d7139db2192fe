/**
 * `journaled()` handlers through answer pages, in Chromium: with `answerPage` on, a handler's
 * `ctx.elicit()` on a client without elicitation returns the link (not `-32021`), the person
 * answers on the page, and the same call again goes on with that answer, on both eras.
 */
import { journaled } from 'mcp-resolve/mrtr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import type { Era } from '../../src/context.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { McpResolveServer } from '../../src/server/server.js';
import { connectHttp } from '../../src/testing/index.js';
import { useBrowser } from '../fixtures/browser.js';

const Pick = z.object({ pick: z.string().meta({ title: 'Your pick' }) });

const browser = useBrowser();
let served: HttpServerHandle;

beforeAll(async () => {
  const server = new McpResolveServer(
    { name: 'journal-pages', version: '1.0.0' },
    { answerPage: { anonymousLinksShareAnswers: true } },
  ).tool(
    'choose',
    { input: { topic: z.string() } },
    journaled(async ({ topic }, ctx) => {
      const answer = await ctx.elicit(`Pick a ${topic}`, Pick);
      return answer.action === 'accept' ? `picked ${answer.value.pick}` : answer.action;
    }),
  );
  served = await serveHttp(server);
});
afterAll(async () => {
  await served?.close();
});

describe.each<Era>(['modern', 'legacy'])('journaled() through answer pages (%s era)', (era) => {
  it('hands a client without elicitation the link, and goes on once the page is answered', async () => {
    const connection = await connectHttp(served.url, { era, capabilities: {} });
    try {
      const call = () => connection.client.callTool({ name: 'choose', arguments: { topic: 'colour' } });
      const first = await call();
      expect(first.isError).toBe(true);
      const text = JSON.stringify(first.content);
      expect(text).toContain('The question: Pick a colour');
      const url = /https?:\/\/[^\s"\\]+/.exec(text)?.[0];
      const tab = await browser.page();
      expect((await tab.goto(url!))?.status()).toBe(200);
      await tab.getByLabel('Your pick').fill('teal');
      await tab.getByRole('button', { name: 'Send answer' }).click();
      await expect.poll(() => tab.locator('h1').textContent()).toBe('Thank you, your answer was saved');
      await tab.close();
      const second = await call();
      expect(second.isError).not.toBe(true);
      expect(second.content).toEqual([{ type: 'text', text: 'picked teal' }]);
    } finally {
      await connection.close();
    }
  });
});
