/**
 * Form questions on clients that show no forms, through the page channels: the URL question of a
 * 2026-07-28 round and the page's answer read on the next round, the link result and the retry that
 * finds the answer, on both strategies (the round layer is faked here).
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { pageLinkChannel, pageLinkResult } from '../../src/answerPage/linkChannel.js';
import { createFormPages, pageBindingOf } from '../../src/pageStore/pages.js';
import type { AnswerPageStore } from '../../src/pageStore/store.js';
import { createAnswerPageStore } from '../../src/pageStore/store.js';
import { createPageLinks } from '../../src/answerPage/links.js';
import { acceptedUrlAnswer, pageUrlChannel, pageUrlRequest } from '../../src/answerPage/urlChannel.js';
import type { CallChannels } from '../../src/channels/channel.js';
import type { ToolContext } from '../../src/context.js';
import { Ledger } from '../../src/questions/ledger.js';
import { elicit } from '../../src/questions/markers.js';
import type { Question } from '../../src/questions/render.js';
import { renderQuestion } from '../../src/questions/render.js';
import type { RoundEnd } from '../../src/questions/strategy.js';
import { strategyFor } from '../../src/round/strategies.js';

/** The text of the hand-off a round ended with (the call's result: the link, in words a model passes on). */
function handOffText(end: RoundEnd): string {
  if (end.kind !== 'handOff') return expect.fail('expected the link');
  expect(end.result.isError).toBe(true);
  const [block] = end.result.content;
  return block?.type === 'text' ? block.text : expect.fail('expected the text');
}

const CONFIRM = z.object({ amount: z.number().max(500).meta({ title: 'Amount' }) });

function question(check?: (value: { amount: number }) => string | undefined): Question {
  const ask = elicit('Refund ORD-1?', CONFIRM, check === undefined ? {} : { check });
  return { key: 'confirm', label: 'confirm', ask, rendered: renderQuestion(ask, 'confirm') };
}

function inBandOnly(): Question {
  const ask = elicit('Refund ORD-1?', CONFIRM, { inBandOnly: true });
  return { key: 'confirm', label: 'confirm', ask, rendered: renderQuestion(ask, 'confirm') };
}

const URL_ONLY: ClientCapabilities = { elicitation: { url: {} } };
const NONE: ClientCapabilities = {};

function context(era: 'modern' | 'legacy', declared: ClientCapabilities, inputResponses?: Record<string, unknown>) {
  return {
    era,
    clientCapabilities: declared,
    http: { req: new Request('http://localhost:3000/mcp') },
    mcpReq: { inputResponses, signal: new AbortController().signal },
  } as unknown as ToolContext;
}

const CALLER = { principal: 'alice', target: 'refund', arguments: { order_id: 'ORD-1' } };

/** The page channels over `store`, as a round of the call `CALLER` sees them. */
function channelsOver(store: AnswerPageStore): CallChannels {
  const pages = createPageLinks(createFormPages(store), { path: '/mcp-resolve/answer' });
  return { providers: [pageUrlChannel(pages), pageLinkChannel(pages, false)], caller: () => CALLER };
}

function hostPages() {
  const store = createAnswerPageStore();
  const channels = channelsOver(store);
  /** Answers the open page of `url` as the person would. */
  const answer = (url: string, response: Parameters<typeof store.submit>[1]) =>
    store.submit(new URL(url).pathname.split('/').pop()!, response);
  return { store, channels, answer };
}

/** The 2026-07-28 strategy of a round over `ledger`. */
function modernStrategy(ctx: ToolContext, ledger: Ledger, channels?: CallChannels) {
  return strategyFor(ctx, {}, { ledger, channels });
}

/** The 2025-11-25 strategy of a call. */
function legacyStrategy(ctx: ToolContext, legacyTimeoutMs: number, channels?: CallChannels) {
  return strategyFor(ctx, {}, { ledger: Ledger.fresh(), legacyTimeoutMs, channels });
}

describe('pageBindingOf', () => {
  it('binds a page to the principal, the tool, the canonical arguments, the question and a digest of the secret', () => {
    const binding = pageBindingOf(CALLER, 'secret-1', question());
    expect(binding).toEqual({
      principal: 'alice',
      tool: 'refund',
      argumentsDigest: expect.stringMatching(/^[\w-]{43}$/),
      questionDigest: question().rendered.digest,
      secretDigest: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(JSON.stringify(binding)).not.toContain('secret-1');
    const reordered = { ...CALLER, arguments: { b: 1, a: 'x' } };
    expect(pageBindingOf(reordered, 'secret-1', question())).toEqual(
      pageBindingOf({ ...CALLER, arguments: { a: 'x', b: 1 } }, 'secret-1', question()),
    );
    expect(pageBindingOf(CALLER, 'secret-2', question()).secretDigest).not.toBe(binding.secretDigest);
    expect(pageBindingOf(CALLER, undefined, question())).not.toHaveProperty('secretDigest');
    expect(pageBindingOf({ ...CALLER, arguments: undefined }, undefined, question()).argumentsDigest).toBe(
      pageBindingOf({ ...CALLER, arguments: {} }, undefined, question()).argumentsDigest,
    );
  });
});

describe('two 2026-07-28 calls with the same arguments', () => {
  it('get two pages, and an answer on one never reaches the other', async () => {
    const { channels, answer } = hostPages();
    const urlOf = async () => {
      const end = await modernStrategy(context('modern', URL_ONLY), Ledger.fresh(), channels).end([question()]);
      if (end.kind !== 'reply') return expect.fail('expected input_required');
      const request = end.result.inputRequests?.confirm as { params: { url: string } };
      return { url: request.params.url, carried: () => Ledger.decode(end.result.requestState!)! };
    };
    const victim = await urlOf();
    const attacker = await urlOf();
    expect(attacker.url).not.toBe(victim.url);
    expect(await answer(attacker.url, { action: 'accept', content: { amount: 500 } })).toBe(true);
    const accepted = context('modern', URL_ONLY, { confirm: { action: 'accept' } });
    expect(await modernStrategy(accepted, victim.carried(), channels).recall(question(), false)).toBeUndefined();
  });
});

describe('the page questions', () => {
  it('are a URL question to the page, and a link result in words a model passes on', () => {
    expect(pageUrlRequest(question(), 'https://mcp.example.com/mcp-resolve/answer/x', 'id-1')).toEqual({
      method: 'elicitation/create',
      params: {
        mode: 'url',
        message: 'Refund ORD-1?',
        url: 'https://mcp.example.com/mcp-resolve/answer/x',
        elicitationId: 'id-1',
      },
    });
    const result = pageLinkResult(question(), 'https://mcp.example.com/mcp-resolve/answer/x');
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text:
            'Before this can go on, the person must answer a question on a web page. Show them this link and ask them to open it: https://mcp.example.com/mcp-resolve/answer/x\n' +
            'The question: Refund ORD-1?\n' +
            'Once they have answered there, call this tool again with the same arguments to continue.',
        },
      ],
      isError: true,
    });
    expect(() => pageUrlRequest(question(), 'http://mcp.example.com/a', '')).toThrow(/must use https/);
    expect(acceptedUrlAnswer({ action: 'accept' })).toBe(true);
    expect(acceptedUrlAnswer({ action: 'decline' })).toBe(false);
  });
});

describe('a 2026-07-28 client that declares URL elicitation only', () => {
  it('is asked a URL question to the page, and the next round reads the page answer under the same key', async () => {
    const { channels, answer } = hostPages();
    const first = modernStrategy(context('modern', URL_ONLY), Ledger.fresh(), channels);
    expect(await first.recall(question(), true)).toBeUndefined();
    expect(() => first.admit(question())).not.toThrow();
    const end = await first.end([question()]);
    if (end.kind !== 'reply') return expect.fail('expected input_required');
    const request = end.result.inputRequests?.confirm;
    expect(request).toMatchObject({ method: 'elicitation/create', params: { mode: 'url', message: 'Refund ORD-1?' } });
    const url = (request as { params: { url: string } }).params.url;
    expect(url).toMatch(/^http:\/\/localhost:3000\/mcp-resolve\/answer\/[\w-]{22}$/);
    const carried = () => Ledger.decode(end.result.requestState!)!;

    // The client says the person went to the page, before they answered: asked again, same page.
    const early = modernStrategy(context('modern', URL_ONLY, { confirm: { action: 'accept' } }), carried(), channels);
    expect(await early.recall(question(), false)).toBeUndefined();

    expect(await answer(url, { action: 'accept', content: { amount: 120 } })).toBe(true);
    const next = modernStrategy(context('modern', URL_ONLY, { confirm: { action: 'accept' } }), carried(), channels);
    expect(await next.recall(question(), false)).toEqual({ action: 'accept', value: { amount: 120 } });
  });

  it("opens the next page with the reason above the question when the author's check refuses the page's answer", async () => {
    const { store, channels, answer } = hostPages();
    const strict = question(({ amount }) => (amount > 100 ? 'Over 100 needs a manager.' : undefined));
    const urlOf = (end: Awaited<ReturnType<ReturnType<typeof modernStrategy>['end']>>) => {
      if (end.kind !== 'reply') return expect.fail('expected input_required');
      const request = end.result.inputRequests?.confirm as { params: { url: string; message: string } };
      return { ...request.params, carried: () => Ledger.decode(end.result.requestState!)! };
    };
    const first = urlOf(await modernStrategy(context('modern', URL_ONLY), Ledger.fresh(), channels).end([strict]));
    expect(await answer(first.url, { action: 'accept', content: { amount: 120 } })).toBe(true);
    const round = modernStrategy(
      context('modern', URL_ONLY, { confirm: { action: 'accept' } }),
      first.carried(),
      channels,
    );
    expect(await round.recall(strict, false)).toBeUndefined();
    const again = urlOf(await round.end([strict]));
    expect(again.url).not.toBe(first.url);
    expect(again.message).toBe('Over 100 needs a manager.\n\nRefund ORD-1?');
    const page = await store.page(new URL(again.url).pathname.split('/').pop()!);
    expect(page?.message).toBe('Over 100 needs a manager.\n\nRefund ORD-1?');
  });

  it('takes a decline of the URL question as the decline of the form question', async () => {
    const { channels } = hostPages();
    const first = modernStrategy(context('modern', URL_ONLY), Ledger.fresh(), channels);
    const end = await first.end([question()]);
    if (end.kind !== 'reply') return expect.fail('expected input_required');
    const next = modernStrategy(
      context('modern', URL_ONLY, { confirm: { action: 'decline' } }),
      Ledger.decode(end.result.requestState!)!,
      channels,
    );
    expect(await next.recall(question(), false)).toEqual({ action: 'decline' });
  });
});

describe.each(['modern', 'legacy'] as const)('a %s client with no elicitation', (era) => {
  const strategyOf = (channels: CallChannels) =>
    era === 'modern'
      ? modernStrategy(context(era, NONE), Ledger.fresh(), channels)
      : legacyStrategy(context(era, NONE), 1_000, channels);

  it('gets the link as a tool result, and the same call again finds the answer, once', async () => {
    const { channels, answer } = hostPages();
    const first = strategyOf(channels);
    expect(await first.recall(question(), true)).toBeUndefined();
    expect(() => first.admit(question())).not.toThrow();
    const url = /open it: (\S+)/.exec(handOffText(await first.end([question()])))![1]!;
    expect(await answer(url, { action: 'accept', content: { amount: 80 } })).toBe(true);
    expect(await strategyOf(channels).recall(question(), true)).toEqual({ action: 'accept', value: { amount: 80 } });
    expect(await strategyOf(channels).recall(question(), true)).toBeUndefined();
  });

  it('asks again on a new page when the link expired before anyone answered it', async () => {
    let clock = Date.now();
    const store = createAnswerPageStore({ ttlMs: 60_000, now: () => clock });
    const channels = channelsOver(store);
    const linkOf = async (): Promise<string> => {
      return /open it: (\S+)/.exec(handOffText(await strategyOf(channels).end([question()])))![1]!;
    };
    const expired = await linkOf();
    clock += 60_001;
    const pageId = new URL(expired).pathname.split('/').pop()!;
    expect(await store.page(pageId)).toBeUndefined();
    expect(await store.submit(pageId, { action: 'accept', content: { amount: 80 } })).toBe(false);
    expect(await strategyOf(channels).recall(question(), true)).toBeUndefined();
    const fresh = await linkOf();
    expect(fresh).not.toBe(expired);
    expect(
      await store.submit(new URL(fresh).pathname.split('/').pop()!, { action: 'accept', content: { amount: 80 } }),
    ).toBe(true);
    expect(await strategyOf(channels).recall(question(), true)).toEqual({ action: 'accept', value: { amount: 80 } });
  });

  it("asks again on a new page, with the reason above the question, when the author's check refuses the page's answer", async () => {
    const { store, channels, answer } = hostPages();
    const strict = question(({ amount }) => (amount > 100 ? 'Over 100 needs a manager.' : undefined));
    const url = /open it: (\S+)/.exec(handOffText(await strategyOf(channels).end([strict])))![1]!;
    await answer(url, { action: 'accept', content: { amount: 120 } });
    // One round: the answer is read and refused, then the question is handed off again.
    const round = strategyOf(channels);
    expect(await round.recall(strict, true)).toBeUndefined();
    const message = handOffText(await round.end([strict]));
    const next = /open it: (\S+)/.exec(message)![1]!;
    expect(next).not.toBe(url);
    expect(message).toContain('The question: Over 100 needs a manager.\n\nRefund ORD-1?\n');
    const page = await store.page(new URL(next).pathname.split('/').pop()!);
    expect(page?.message).toBe('Over 100 needs a manager.\n\nRefund ORD-1?');
  });
});

describe('an inBandOnly question with answer pages', () => {
  it.each([
    ['URL-only', URL_ONLY],
    ['no-elicitation', NONE],
  ])('is refused with the -32021 capability error on a %s client, on both strategies', (_, declared) => {
    const { channels } = hostPages();
    const refused = /Client does not support elicitation \(form mode\), which resolver 'confirm'/;
    expect(() => modernStrategy(context('modern', declared), Ledger.fresh(), channels).admit(inBandOnly())).toThrow(
      refused,
    );
    expect(() => legacyStrategy(context('legacy', declared), 1_000, channels).admit(inBandOnly())).toThrow(refused);
  });
});

describe('without answer pages', () => {
  it('keeps the -32021 capability error', () => {
    expect(() => modernStrategy(context('modern', URL_ONLY), Ledger.fresh()).admit(question())).toThrow(
      /Client does not support elicitation \(form mode\)/,
    );
    expect(() => legacyStrategy(context('legacy', NONE), 1_000).admit(question())).toThrow(
      /Client does not support elicitation \(form mode\)/,
    );
  });
});
