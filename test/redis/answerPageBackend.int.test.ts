/**
 * The answer page backend over a real redis-server: each step atomic across connections (open once,
 * answer once, take once), the fleet-wide bounds, masked failures, the start-up check of the page
 * budget against `maxmemory`, and two instances sharing pages.
 */
import { describe, expect, it } from 'vitest';

import { createRedisAnswerPageBackend } from '../../src/redis/answerPageBackend.js';
import { createAnswerPageStore } from '../../src/pageStore/store.js';
import type { NewAnswerPage } from '../../src/pageStore/backend.js';
import { McpResolveError, ToolError } from '../../src/errors.js';
import { isClientFacing } from '../../src/round/masking.js';
import { useRedisServer } from '../fixtures/redisServer.js';
import { ALICE_CALL, REFUND_QUESTION } from '../answerPage/helpers.js';

const redis = useRedisServer();

let serial = 0;
/** A page of `client` with a fresh id and binding, open for `ms`. */
function pageOf(client: string, record = '{}', ms = 60_000): NewAnswerPage {
  serial += 1;
  const pageId = `page-${String(serial).padStart(17, '0')}`;
  return { pageId, record, bindingKey: `binding-${serial}`, client, expiresAt: Date.now() + ms };
}

describe('the Redis answer page backend', () => {
  it('opens, answers and takes each once across connections, under its prefix', async () => {
    const [one, two] = [await redis.connect(), await redis.connect()];
    const a = await createRedisAnswerPageBackend(one, { keyPrefix: 'test:a:' });
    const b = await createRedisAnswerPageBackend(two, { keyPrefix: 'test:a:' });
    const page = pageOf('alice', '{"q":"語"}');
    expect(await a.open(page)).toBe('opened');
    expect(await b.open({ ...page, bindingKey: 'other' })).toBe('exists');
    expect(await b.page(page.pageId)).toBe('{"q":"語"}');
    expect(await b.pageFor(page.bindingKey)).toBe('{"q":"語"}');
    expect(await one.get(`{test:a:}page:${page.pageId}`)).toBe('{"q":"語"}');
    expect(Number(await one.get('{test:a:}bytes'))).toBe(11 + 512);
    const answers = await Promise.all([
      a.answer(page.pageId, '"x"', Date.now() + 60_000),
      b.answer(page.pageId, '"y"', Date.now() + 60_000),
    ]);
    expect(answers.sort()).toEqual(['closed', 'stored']);
    expect(await a.page(page.pageId)).toBeUndefined();
    const taken = await Promise.all([a.take(page.bindingKey), b.take(page.bindingKey), a.take(page.bindingKey)]);
    expect(taken.filter((value) => value !== undefined)).toHaveLength(1);
    expect(await one.keys('{test:a:}*')).toEqual(['{test:a:}bytes']);
    expect(await one.get('{test:a:}bytes')).toBe('0');
  });

  it('keeps the bounds fleet-wide: pages per client (others still open theirs), pages and bytes, releasing what expired', async () => {
    const [one, two] = [await redis.connect(), await redis.connect()];
    const bounds = { keyPrefix: 'test:b:', maxPagesPerClient: 2, maxPages: 4, maxHeldBytes: 4_000 };
    const a = await createRedisAnswerPageBackend(one, bounds);
    const b = await createRedisAnswerPageBackend(two, bounds);
    // These pages live a minute: no refusal below races an expiry, however slow the machine.
    expect(await a.open(pageOf('mallory'))).toBe('opened');
    expect(await b.open(pageOf('mallory'))).toBe('opened');
    const refused = await a.open(pageOf('mallory'));
    expect(refused).toMatchObject({ limit: 'maxPagesPerClient', max: 2 });
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(await b.open(pageOf('alice'))).toBe('opened');
    expect(await a.open(pageOf('bob', 'x'.repeat(3_000)))).toMatchObject({ limit: 'maxHeldBytes', max: 4_000 });
    expect(await a.open(pageOf('bob'))).toBe('opened');
    expect(await a.open(pageOf('carol'))).toMatchObject({ limit: 'maxPages', max: 4 });
    // Once a page has expired, its share is released: under the same bounds (a prefix of its own),
    // Mallory at her 2 pages, one of which lives half a second, opens a third once it expired.
    const c = await createRedisAnswerPageBackend(one, { ...bounds, keyPrefix: 'test:b-expiry:' });
    expect(await c.open(pageOf('mallory', '{}', 500))).toBe('opened');
    expect(await c.open(pageOf('mallory'))).toBe('opened');
    await expect.poll(() => c.open(pageOf('mallory')), { interval: 200 }).toBe('opened');
  });

  it('fails closed with a redis_unavailable error (masked for clients), reported, when Redis does not answer', async () => {
    const connection = await redis.connect();
    const errors: Error[] = [];
    const backend = await createRedisAnswerPageBackend(connection, {
      keyPrefix: 'test:c:',
      commandTimeoutMs: 200,
      onerror: (error) => errors.push(error),
    });
    // Only the failed read's report counts here: the start-up check of maxmemory runs under the same
    // 200 ms deadline, and on a starved machine it may time out too (reported, not thrown).
    errors.length = 0;
    // Frozen until the test thaws it (CLIENT PAUSE lifted itself after 1 s, however far the test was).
    redis.pause();
    try {
      const failed = backend.page('k');
      await expect(failed).rejects.toThrow(McpResolveError);
      await expect(failed).rejects.not.toThrow(ToolError);
      await expect(failed).rejects.toMatchObject({ code: 'redis_unavailable', data: { operation: 'answer_page' } });
      await expect(failed).rejects.toThrow(/^Answer pages: Redis did not answer \(read: no answer within 200 ms\)\./);
      expect(isClientFacing(await failed.catch((error: unknown) => error))).toBe(false);
      expect(errors).toHaveLength(1);
    } finally {
      redis.resume();
    }
  });

  it('refuses at start a page budget over half of maxmemory, naming maxHeldBytes', async () => {
    const connection = await redis.connect();
    await connection.configSet('maxmemory', '8mb');
    try {
      const error = await createRedisAnswerPageBackend(connection, { maxHeldBytes: 5 * 1024 * 1024 }).catch(
        (error: unknown) => error,
      );
      expect(error).toBeInstanceOf(McpResolveError);
      expect(error).toMatchObject({
        code: 'invalid_options',
        data: { api: 'createRedisAnswerPageBackend()', option: 'maxHeldBytes' },
        message:
          "createRedisAnswerPageBackend(): maxHeldBytes (5242880) is more than half of Redis's maxmemory (8388608), so a flood of pages could leave no room for replay and session keys. Lower maxHeldBytes to at most 4194304, or raise maxmemory.",
      });
      await expect(createRedisAnswerPageBackend(connection, { maxHeldBytes: 4 * 1024 * 1024 })).resolves.toBeDefined();
    } finally {
      await connection.configSet('maxmemory', '0');
    }
  });
});

describe('the answer page store on a fleet of two', () => {
  it('opens a page on one instance, takes its answer on the other, once', async () => {
    const keyPrefix = 'test:fleet:';
    const first = createAnswerPageStore({
      backend: await createRedisAnswerPageBackend(await redis.connect(), { keyPrefix }),
    });
    const second = createAnswerPageStore({
      backend: await createRedisAnswerPageBackend(await redis.connect(), { keyPrefix }),
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
