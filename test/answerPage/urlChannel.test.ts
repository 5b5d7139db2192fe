/**
 * A 2025-11-25 client that declares URL elicitation only: the form question is pushed as a URL
 * question to its page; once the person accepted, the call waits for the page's answer, reports the
 * elicitation complete on the connection, and reads the answer as an in-band one.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createFormPages } from '../../src/pageStore/pages.js';
import { createAnswerPageStore } from '../../src/pageStore/store.js';
import { createPageLinks } from '../../src/answerPage/links.js';
import { pageUrlChannel } from '../../src/answerPage/urlChannel.js';
import type { InBandChannel } from '../../src/channels/channel.js';
import type { ToolContext } from '../../src/context.js';
import { ToolError } from '../../src/errors.js';
import { elicit } from '../../src/questions/markers.js';
import { renderQuestion } from '../../src/questions/render.js';

const ask = elicit('Refund ORD-1?', z.object({ amount: z.number() }));
const QUESTION = { key: 'confirm', label: 'confirm', ask, rendered: renderQuestion(ask, 'confirm') };

function setup(consent: 'accept' | 'decline', onPushed: (url: string) => void = () => undefined) {
  const store = createAnswerPageStore();
  const pages = createPageLinks(createFormPages(store), { path: '/mcp-resolve/answer' });
  const pushed: Array<{ method: string; params: Record<string, unknown> }> = [];
  const completed: string[] = [];
  const ctx = {
    era: 'legacy',
    clientCapabilities: { elicitation: { url: {} } },
    http: { req: new Request('http://127.0.0.1:3000/mcp') },
    mcpReq: {
      signal: new AbortController().signal,
      send: async (request: { method: string; params: Record<string, unknown> }) => {
        pushed.push(request);
        onPushed(String(request.params.url));
        return { action: consent };
      },
    },
  } as unknown as ToolContext;
  const answer = (url: string, content: Record<string, unknown>) =>
    store.submit(new URL(url).pathname.split('/').pop()!, { action: 'accept', content });
  /** The 2025-11-25 push of the page-by-URL channel of a call on `ctx`, waiting `timeoutMs`. */
  const channel = (timeoutMs: number) => {
    const opened = pageUrlChannel(pages).open({
      ctx,
      round: { completeElicitation: (id: string) => async () => void completed.push(id) },
      caller: () => ({ principal: undefined, target: 'refund', arguments: {} }),
      secret: () => 'call-secret',
    }) as InBandChannel;
    return { push: (question: typeof QUESTION) => opened.push!(question, timeoutMs) };
  };
  return { store, channel, pushed, completed, answer };
}

describe('the page by URL on 2025-11-25', () => {
  it('pushes a URL question to the page, waits for its answer, and reports the elicitation complete', async () => {
    let pageUrl = '';
    const { channel, pushed, completed, answer } = setup('accept', (url) => (pageUrl = url));
    const outcome = channel(5_000).push(QUESTION);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Refund ORD-1?' },
    });
    expect(pageUrl).toMatch(/^http:\/\/127\.0\.0\.1:3000\/mcp-resolve\/answer\/[\w-]{22}$/);
    expect(await answer(pageUrl, { amount: 42 })).toBe(true);
    expect(await outcome).toEqual({ action: 'accept', value: { amount: 42 } });
    expect(completed).toEqual([pushed[0]!.params.elicitationId]);
  });

  it("pushes the next page with the reason above the question when the author's check refuses the answer", async () => {
    const strictAsk = elicit('Refund ORD-1?', z.object({ amount: z.number() }), {
      check: ({ amount }) => (amount > 100 ? 'Over 100 needs a manager.' : undefined),
    });
    const strict = { key: 'confirm', label: 'confirm', ask: strictAsk, rendered: renderQuestion(strictAsk, 'confirm') };
    const shown: string[] = [];
    const { store, channel, pushed, answer } = setup('accept', (url) => {
      // The person reads the page, then answers: 120 first (refused by the check), then 80.
      const amount = pushed.length === 1 ? 120 : 80;
      void store.page(new URL(url).pathname.split('/').pop()!).then((page) => {
        shown.push(page!.message);
        return answer(url, { amount });
      });
    });
    expect(await channel(5_000).push(strict)).toEqual({ action: 'accept', value: { amount: 80 } });
    expect(pushed.map((request) => request.params.message)).toEqual([
      'Refund ORD-1?',
      'Over 100 needs a manager.\n\nRefund ORD-1?',
    ]);
    expect(shown).toEqual(['Refund ORD-1?', 'Over 100 needs a manager.\n\nRefund ORD-1?']);
  });

  it('returns a declined URL question as the decline, without waiting', async () => {
    const { channel, completed } = setup('decline');
    expect(await channel(5_000).push(QUESTION)).toEqual({ action: 'decline' });
    expect(completed).toEqual([]);
  });

  it('fails the call when the person never answers on the page', async () => {
    const { channel } = setup('accept');
    await expect(channel(600).push(QUESTION)).rejects.toThrow(ToolError);
    await expect(channel(10).push(QUESTION)).rejects.toThrow(
      "Resolver 'confirm': the person did not answer on the page within 10 ms.",
    );
  });
});
