import { describe, expect, it } from 'vitest';

import { createMemoryAnswerPageBackend } from '../../src/pageStore/memoryBackend.js';
import { bindingDigest, createAnswerPageStore, isPageId, newPageId } from '../../src/pageStore/store.js';
import type { AnswerPageBackend } from '../../src/pageStore/backend.js';
import { McpResolveError, ToolError } from '../../src/errors.js';
import { ALICE_CALL, REFUND_QUESTION } from '../answerPage/helpers.js';

const ACCEPTED = { action: 'accept', content: { amount: 120 } } as const;

describe('page ids', () => {
  it('are 22 base64url characters (128 random bits), all different', () => {
    const ids = new Set(Array.from({ length: 1_000 }, newPageId));
    expect(ids.size).toBe(1_000);
    for (const id of ids) expect(isPageId(id)).toBe(true);
    expect(isPageId('short')).toBe(false);
    expect(isPageId(`${newPageId().slice(0, 21)}/`)).toBe(false);
  });
});

describe('the answer page store', () => {
  it('opens a page bound to the call, and opens the same page again until it is answered', async () => {
    const store = createAnswerPageStore();
    const page = await store.open(ALICE_CALL, REFUND_QUESTION);
    expect(page).toMatchObject({ ...ALICE_CALL, ...REFUND_QUESTION });
    expect(isPageId(page.pageId)).toBe(true);
    expect((await store.open(ALICE_CALL, REFUND_QUESTION)).pageId).toBe(page.pageId);
    expect(await store.page(page.pageId)).toEqual(page);
    const other = await store.open({ ...ALICE_CALL, argumentsDigest: 'args-2' }, REFUND_QUESTION);
    expect(other.pageId).not.toBe(page.pageId);
  });

  it('takes one answer per page, gives it once to the same binding, and never reopens the page', async () => {
    const store = createAnswerPageStore();
    const page = await store.open(ALICE_CALL, REFUND_QUESTION);
    expect(await store.take(ALICE_CALL)).toBeUndefined();
    expect(await store.submit(page.pageId, ACCEPTED)).toBe(true);
    expect(await store.submit(page.pageId, { action: 'decline' })).toBe(false);
    expect(await store.page(page.pageId)).toBeUndefined();
    for (const foreign of [
      { ...ALICE_CALL, principal: 'bob' },
      { ...ALICE_CALL, principal: undefined },
      { ...ALICE_CALL, tool: 'other' },
      { ...ALICE_CALL, argumentsDigest: 'args-2' },
      { ...ALICE_CALL, questionDigest: 'question-2' },
    ]) {
      expect(await store.take(foreign)).toBeUndefined();
    }
    const [first, second] = await Promise.all([store.take(ALICE_CALL), store.take(ALICE_CALL)]);
    expect([first, second]).toEqual([ACCEPTED, undefined]);
    expect(await store.page(page.pageId)).toBeUndefined();
    expect(await store.submit(page.pageId, ACCEPTED)).toBe(false);
    const next = await store.open(ALICE_CALL, REFUND_QUESTION);
    expect(next.pageId).not.toBe(page.pageId);
  });

  it('lets a page expire after the TTL, and an answer wait a whole TTL from when it came', async () => {
    let at = 1_000_000;
    const now = () => at;
    const store = createAnswerPageStore({ ttlMs: 1_000, now, backend: createMemoryAnswerPageBackend({ now }) });
    const expired = await store.open(ALICE_CALL, REFUND_QUESTION);
    at += 1_000;
    expect(await store.page(expired.pageId)).toBeUndefined();
    expect(await store.submit(expired.pageId, ACCEPTED)).toBe(false);
    const page = await store.open(ALICE_CALL, REFUND_QUESTION);
    expect(page.pageId).not.toBe(expired.pageId);
    at += 900;
    expect(await store.submit(page.pageId, ACCEPTED)).toBe(true);
    at += 900;
    expect(await store.take(ALICE_CALL)).toEqual(ACCEPTED);
  });

  it('refuses a page over maxPageBytes and an answer over maxAnswerBytes', async () => {
    const store = createAnswerPageStore({ maxPageBytes: 1_000, maxAnswerBytes: 100 });
    await expect(store.open(ALICE_CALL, { ...REFUND_QUESTION, message: 'x'.repeat(1_000) })).rejects.toThrow(
      /^Answer pages: the question is too large for a page \(got \d+ bytes; the most is 1000, the store's maxPageBytes option\)\. Shorten its message or its form\.$/,
    );
    const page = await store.open(ALICE_CALL, REFUND_QUESTION);
    expect(await store.submit(page.pageId, { action: 'accept', content: { note: 'x'.repeat(100) } })).toBe(false);
    expect(await store.page(page.pageId)).toBeDefined();
  });

  it('treats a malformed or unknown page id as no page, without asking the backend about a malformed one', async () => {
    const asked: string[] = [];
    const memory = createMemoryAnswerPageBackend();
    const store = createAnswerPageStore({
      backend: { ...memory, page: (pageId) => (asked.push(pageId), memory.page(pageId)) },
    });
    expect(await store.page('../../etc/passwd')).toBeUndefined();
    expect(asked).toEqual([]);
    expect(await store.page(newPageId())).toBeUndefined();
  });

  it('files bindings by a digest of all four parts', () => {
    expect(bindingDigest(ALICE_CALL)).toBe(bindingDigest({ ...ALICE_CALL }));
    expect(bindingDigest(ALICE_CALL)).not.toBe(bindingDigest({ ...ALICE_CALL, principal: undefined }));
  });

  it('refuses options that are not positive integers, naming them', () => {
    expect(() => createAnswerPageStore({ ttlMs: -1 })).toThrow(McpResolveError);
    expect(() => createAnswerPageStore({ ttlMs: -1 })).toThrow(
      'createAnswerPageStore(): ttlMs must be a positive integer (got -1).',
    );
  });

  it('bounds one client flooding pages with large questions, in bytes counted as UTF-8, while another client still gets a page', async () => {
    const backend = createMemoryAnswerPageBackend();
    const store = createAnswerPageStore({ backend });
    // Near the largest page, in non-Latin text (three bytes a character in UTF-8).
    const large = { ...REFUND_QUESTION, message: '語'.repeat(20_000) };
    let opened = 0;
    let refusal: unknown;
    for (let index = 0; index < 1_000 && refusal === undefined; index += 1) {
      const call = { ...ALICE_CALL, principal: undefined, argumentsDigest: `flood-${index}` };
      try {
        await store.open(call, large, 'address:203.0.113.9');
        opened += 1;
      } catch (error) {
        refusal = error;
      }
    }
    expect(opened).toBe(16);
    expect(refusal).toBeInstanceOf(ToolError);
    expect((refusal as Error).message).toMatch(
      /^Answer pages: this call needs a page, and there are already 16 questions open on pages for this client, the most allowed \(the answer page backend's maxPagesPerClient option\)\. Answer or finish an open question, or retry after 900 s\.$/,
    );
    expect(backend.bytes).toBeGreaterThan(16 * 60_000);
    expect(backend.bytes).toBeLessThan(backend.limits.maxHeldBytes / 4);
    const page = await store.open({ ...ALICE_CALL, principal: 'bob' }, REFUND_QUESTION);
    expect(await store.page(page.pageId)).toEqual(page);
  });

  it('counts a page against its principal when no client is named, anonymous callers sharing one quota', async () => {
    const store = createAnswerPageStore({ backend: createMemoryAnswerPageBackend({ maxPagesPerClient: 1 }) });
    await store.open(ALICE_CALL, REFUND_QUESTION);
    await expect(store.open({ ...ALICE_CALL, tool: 'other' }, REFUND_QUESTION)).rejects.toThrow(ToolError);
    await store.open({ ...ALICE_CALL, principal: 'bob' }, REFUND_QUESTION);
    await store.open({ ...ALICE_CALL, principal: undefined }, REFUND_QUESTION);
    await expect(store.open({ ...ALICE_CALL, principal: undefined, tool: 'other' }, REFUND_QUESTION)).rejects.toThrow(
      /maxPagesPerClient/,
    );
  });

  it('keeps the page open when the answer could not be stored, so the person can send it again', async () => {
    const memory = createMemoryAnswerPageBackend();
    let failing = true;
    const backend: AnswerPageBackend = {
      ...memory,
      limits: memory.limits,
      answer: async (pageId, answer, expiresAt) => {
        if (failing) throw new Error('connect ECONNREFUSED 10.0.0.5:6379');
        return memory.answer(pageId, answer, expiresAt);
      },
    };
    const store = createAnswerPageStore({ backend });
    const page = await store.open(ALICE_CALL, REFUND_QUESTION);
    await expect(store.submit(page.pageId, ACCEPTED)).rejects.toThrow('ECONNREFUSED');
    expect(await store.page(page.pageId)).toEqual(page);
    expect(await store.take(ALICE_CALL)).toBeUndefined();
    failing = false;
    expect(await store.submit(page.pageId, ACCEPTED)).toBe(true);
    expect(await store.take(ALICE_CALL)).toEqual(ACCEPTED);
  });
});
