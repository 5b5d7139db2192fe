import { describe, expect, it } from 'vitest';

import { createPostBudget, MAX_COUNTED_PAGES, PAGE_POSTS_PER_MINUTE } from '../../src/answerPage/postBudget.js';

describe('the post budget of pages', () => {
  it('counts each page on its own, and opens a page again when its minute ends', () => {
    let now = 1_000_000;
    const budget = createPostBudget(() => now);
    for (let index = 0; index < PAGE_POSTS_PER_MINUTE; index++) expect(budget.take('a')).toBeUndefined();
    expect(budget.take('a')).toBe(60);
    expect(budget.take('b')).toBeUndefined();
    now += 45_500;
    expect(budget.take('a')).toBe(15);
    now += 14_500;
    expect(budget.take('a')).toBeUndefined();
  });

  it(`holds at most ${MAX_COUNTED_PAGES} pages, forgetting the oldest first`, () => {
    const budget = createPostBudget(() => 0);
    for (let index = 0; index <= PAGE_POSTS_PER_MINUTE; index++) budget.take('first');
    expect(budget.take('first')).toBeDefined();
    for (let index = 0; index < MAX_COUNTED_PAGES; index++) budget.take(`page-${index}`);
    expect(budget.take('first')).toBeUndefined();
  });
});
