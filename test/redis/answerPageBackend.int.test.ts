/**
 * The answer page store over a real redis-server: the backend's set-if-absent, expiry and
 * take-once, and two instances sharing pages (opened on one, answered on the other, taken once).
 */
import { describe, expect, it } from 'vitest';

import { createRedisAnswerPageBackend } from '../../src/redis/answerPageBackend.js';
import { createAnswerPageStore } from '../../src/answerPage/store.js';
import { ToolError } from '../../src/errors.js';
import { useRedisServer } from '../fixtures/redisServer.js';
import { ALICE_CALL, REFUND_QUESTION } from '../answerPage/helpers.js';

const redis = useRedisServer();

describe('the Redis answer page backend', () => {
  it('sets if absent, reads, takes once across connections, deletes, under its prefix', async () => {
    const [one, two] = [await redis.connect(), await redis.connect()];
    const a = createRedisAnswerPageBackend(one, { keyPrefix: 'test:a:' });
    const b = createRedisAnswerPageBackend(two, { keyPrefix: 'test:a:' });
    const later = Date.now() + 60_000;
    expect(await a.set('k', '1', later, true)).toBe(true);
    expect(await b.set('k', '2', later, true)).toBe(false);
    expect(await b.get('k')).toBe('1');
    expect(await one.get('test:a:k')).toBe('1');
    expect(await b.set('k', '3', later, false)).toBe(true);
    const taken = await Promise.all([a.take('k'), b.take('k'), a.take('k')]);
    expect(taken.filter((value) => value !== undefined)).toEqual(['3']);
    await a.set('x', '1', later, true);
    await b.delete('x', 'missing');
    expect(await a.get('x')).toBeUndefined();
    await a.delete();
  });

  it('expires a value at its absolute expiry', async () => {
    const backend = createRedisAnswerPageBackend(await redis.connect(), { keyPrefix: 'test:b:' });
    await backend.set('k', '1', Date.now() + 150, true);
    expect(await backend.get('k')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await backend.get('k')).toBeUndefined();
    expect(await backend.set('k', '2', Date.now() + 1_000, true)).toBe(true);
  });

  it('fails closed with a ToolError, reported, when Redis does not answer', async () => {
    const connection = await redis.connect();
    const errors: Error[] = [];
    const backend = createRedisAnswerPageBackend(connection, {
      keyPrefix: 'test:c:',
      commandTimeoutMs: 200,
      onerror: (error) => errors.push(error),
    });
    await connection.clientPause(1000, 'ALL');
    const failed = backend.get('k');
    await expect(failed).rejects.toThrow(ToolError);
    await expect(failed).rejects.toThrow(/^Answer pages: Redis did not answer \(GET: no answer within 200 ms\)\./);
    expect(errors).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  });
});

describe('the answer page store on a fleet of two', () => {
  it('opens a page on one instance, takes its answer on the other, once', async () => {
    const keyPrefix = 'test:fleet:';
    const first = createAnswerPageStore({
      backend: createRedisAnswerPageBackend(await redis.connect(), { keyPrefix }),
    });
    const second = createAnswerPageStore({
      backend: createRedisAnswerPageBackend(await redis.connect(), { keyPrefix }),
    });
    const page = await first.open(ALICE_CALL, REFUND_QUESTION);
    expect((await second.open(ALICE_CALL, REFUND_QUESTION)).pageId).toBe(page.pageId);
    expect(await second.page(page.pageId)).toEqual(page);
    const submitted = await Promise.all([
      second.submit(page.pageId, { action: 'decline' }),
      first.submit(page.pageId, { action: 'cancel' }),
    ]);
    expect(submitted.filter(Boolean)).toHaveLength(1);
    const taken = await Promise.all([first.take(ALICE_CALL), second.take(ALICE_CALL)]);
    expect(taken.filter((answer) => answer !== undefined)).toHaveLength(1);
    expect(await first.page(page.pageId)).toBeUndefined();
    expect(await second.submit(page.pageId, { action: 'decline' })).toBe(false);
  });
});
