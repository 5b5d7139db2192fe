import { describe, expect, it } from 'vitest';

import { createMemoryAnswerPageBackend } from '../../src/answerPage/backend.js';
import { McpResolveError, ToolError } from '../../src/errors.js';

function clock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

describe('the in-memory answer page backend', () => {
  it('sets only if absent when asked, reads, takes once and deletes', async () => {
    const backend = createMemoryAnswerPageBackend();
    const later = Date.now() + 60_000;
    expect(await backend.set('a', '1', later, true)).toBe(true);
    expect(await backend.set('a', '2', later, true)).toBe(false);
    expect(await backend.get('a')).toBe('1');
    expect(await backend.set('a', '3', later, false)).toBe(true);
    const [first, second] = await Promise.all([backend.take('a'), backend.take('a')]);
    expect([first, second]).toEqual(['3', undefined]);
    await backend.set('b', '1', later, true);
    await backend.delete('b', 'missing');
    expect(await backend.get('b')).toBeUndefined();
    expect(backend.size).toBe(0);
    expect(backend.bytes).toBe(0);
  });

  it('forgets a value at its expiry, and lets its key be set again', async () => {
    const time = clock();
    const backend = createMemoryAnswerPageBackend({ now: time.now });
    await backend.set('a', '1', time.now() + 100, true);
    time.advance(100);
    expect(await backend.get('a')).toBeUndefined();
    expect(await backend.set('a', '2', time.now() + 100, true)).toBe(true);
    expect(await backend.set('b', '1', time.now(), true)).toBe(false);
  });

  it('holds at most maxBytes: a new value past it is refused until expired ones are swept', async () => {
    const time = clock();
    const backend = createMemoryAnswerPageBackend({ now: time.now, maxBytes: 200 });
    await backend.set('a', 'x'.repeat(60), time.now() + 100, true);
    expect(backend.bytes).toBe(1 + 60 + 64);
    await expect(backend.set('b', 'y'.repeat(60), time.now() + 100, true)).rejects.toThrow(ToolError);
    await expect(backend.set('b', 'y'.repeat(60), time.now() + 100, true)).rejects.toThrow(
      'Answer pages: this server holds at most 200 bytes of open questions and answers, and that is reached. Try again later.',
    );
    time.advance(1_000);
    expect(await backend.set('b', 'y'.repeat(60), time.now() + 100, true)).toBe(true);
    expect(backend.size).toBe(1);
  });

  it('refuses a budget that is not a positive integer, naming the option', () => {
    expect(() => createMemoryAnswerPageBackend({ maxBytes: 0 })).toThrow(McpResolveError);
    expect(() => createMemoryAnswerPageBackend({ maxBytes: 0 })).toThrow(
      'createMemoryAnswerPageBackend(): maxBytes must be a positive integer (got 0).',
    );
  });
});
