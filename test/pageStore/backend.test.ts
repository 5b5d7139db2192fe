import { describe, expect, it } from 'vitest';

import type { NewAnswerPage } from '../../src/pageStore/backend.js';
import { refusalError } from '../../src/pageStore/backend.js';
import { createMemoryAnswerPageBackend } from '../../src/pageStore/memoryBackend.js';
import { heldTextBytes } from '../../src/state/bytes.js';
import { McpResolveError, ToolError } from '../../src/errors.js';

function clock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

let serial = 0;
/** A page of `client` with a fresh id and binding, open for 1 s from `now`. */
function pageOf(client: string, now: number, record = '{}'): NewAnswerPage {
  serial += 1;
  const pageId = `page-${String(serial).padStart(17, '0')}`;
  return { pageId, record, bindingKey: `binding-${serial}`, client, expiresAt: now + 1_000 };
}

describe('the in-memory answer page backend', () => {
  it('opens a page once, reads it by id and binding while open, answers it once, and takes the answer once', async () => {
    const time = clock();
    const backend = createMemoryAnswerPageBackend({ now: time.now });
    const page = pageOf('alice', time.now(), '{"q":1}');
    expect(await backend.open(page)).toBe('opened');
    expect(await backend.open({ ...page, bindingKey: 'other' })).toBe('exists');
    expect(await backend.page(page.pageId)).toBe('{"q":1}');
    expect(await backend.pageFor(page.bindingKey)).toBe('{"q":1}');
    expect(await backend.take(page.bindingKey)).toBeUndefined();
    const answers = await Promise.all([
      backend.answer(page.pageId, '"a"', time.now() + 5_000),
      backend.answer(page.pageId, '"b"', time.now() + 5_000),
    ]);
    expect(answers).toEqual(['stored', 'closed']);
    expect(await backend.page(page.pageId)).toBeUndefined();
    expect(await backend.pageFor(page.bindingKey)).toBeUndefined();
    time.advance(2_000);
    // The answer outlives the page: it waits until its own expiry.
    const taken = await Promise.all([backend.take(page.bindingKey), backend.take(page.bindingKey)]);
    expect(taken).toEqual(['"a"', undefined]);
    expect(await backend.answer(page.pageId, '"c"', time.now() + 5_000)).toBe('closed');
    expect(backend.size).toBe(0);
    expect(backend.bytes).toBe(0);
  });

  it('forgets a page at its expiry, answered or not', async () => {
    const time = clock();
    const backend = createMemoryAnswerPageBackend({ now: time.now });
    const page = pageOf('alice', time.now());
    await backend.open(page);
    time.advance(1_000);
    expect(await backend.page(page.pageId)).toBeUndefined();
    expect(await backend.answer(page.pageId, '"a"', time.now() + 1_000)).toBe('closed');
    expect(backend.size).toBe(0);
  });

  it('holds at most maxPagesPerClient pages of one client, refusing with the time until one expires, while others still open pages', async () => {
    const time = clock();
    const backend = createMemoryAnswerPageBackend({ now: time.now, maxPagesPerClient: 3 });
    for (let index = 0; index < 3; index += 1) {
      expect(await backend.open(pageOf('mallory', time.now()))).toBe('opened');
      time.advance(100);
    }
    expect(await backend.open(pageOf('mallory', time.now()))).toEqual({
      limit: 'maxPagesPerClient',
      max: 3,
      retryAfterMs: 700,
    });
    expect(await backend.open(pageOf('alice', time.now()))).toBe('opened');
    time.advance(700);
    expect(await backend.open(pageOf('mallory', time.now()))).toBe('opened');
  });

  it('holds at most maxPages pages and maxHeldBytes bytes in all', async () => {
    const time = clock();
    const counted = createMemoryAnswerPageBackend({ now: time.now, maxPages: 2 });
    await counted.open(pageOf('a', time.now()));
    await counted.open(pageOf('b', time.now()));
    expect(await counted.open(pageOf('c', time.now()))).toMatchObject({ limit: 'maxPages', max: 2 });

    const budget = createMemoryAnswerPageBackend({ now: time.now, maxHeldBytes: 2_000 });
    const page = pageOf('a', time.now(), 'x'.repeat(1_000));
    expect(await budget.open(page)).toBe('opened');
    expect(budget.bytes).toBe(1_000 + 512);
    expect(await budget.open(pageOf('b', time.now(), 'y'.repeat(1_000)))).toMatchObject({ limit: 'maxHeldBytes' });
    // An answer past the budget is refused and the page stays open.
    expect(await budget.answer(page.pageId, 'z'.repeat(600), time.now() + 1_000)).toMatchObject({
      limit: 'maxHeldBytes',
      max: 2_000,
      retryAfterMs: 1_000,
    });
    expect(await budget.page(page.pageId)).toBeDefined();
    expect(await budget.answer(page.pageId, 'z'.repeat(400), time.now() + 1_000)).toBe('stored');
    expect(budget.bytes).toBe(1_912);
  });

  it('counts bytes as UTF-8, and at least as the text takes in a JavaScript heap', async () => {
    expect(heldTextBytes('abc')).toBe(3);
    expect(heldTextBytes('é'.repeat(10))).toBe(20);
    expect(heldTextBytes('語'.repeat(10))).toBe(30);
    expect(heldTextBytes('😀')).toBe(4);
    expect(heldTextBytes(`${'a'.repeat(100)}語`)).toBe(202);
    const time = clock();
    const backend = createMemoryAnswerPageBackend({ now: time.now, maxHeldBytes: 3_000 });
    expect(await backend.open(pageOf('a', time.now(), '語'.repeat(1_000)))).toMatchObject({ limit: 'maxHeldBytes' });
    expect(await backend.open(pageOf('a', time.now(), '語'.repeat(800)))).toBe('opened');
    expect(backend.bytes).toBe(2_400 + 512);
  });

  it('refuses bounds that are not positive integers, naming the option', () => {
    for (const option of ['maxHeldBytes', 'maxPages', 'maxPagesPerClient'] as const) {
      expect(() => createMemoryAnswerPageBackend({ [option]: 0 })).toThrow(McpResolveError);
      expect(() => createMemoryAnswerPageBackend({ [option]: 0 })).toThrow(
        `createMemoryAnswerPageBackend(): ${option} must be a positive integer (got 0).`,
      );
    }
  });
});

describe('refusalError', () => {
  it('is a ToolError naming the bound, its option and when to retry', () => {
    const error = refusalError({ limit: 'maxPagesPerClient', max: 16, retryAfterMs: 899_001 });
    expect(error).toBeInstanceOf(ToolError);
    expect(error.message).toBe(
      "Answer pages: this call needs a page, and there are already 16 questions open on pages for this client, the most allowed (the answer page backend's maxPagesPerClient option). Answer or finish an open question, or retry after 900 s.",
    );
    expect(refusalError({ limit: 'maxHeldBytes', max: 10, retryAfterMs: 0 }).message).toContain(
      "already 10 held bytes of questions and answers on pages on this server, the most allowed (the answer page backend's maxHeldBytes option)",
    );
  });
});
