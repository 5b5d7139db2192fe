/**
 * A flood of answer pages on a small Redis (`maxmemory 8mb`, `noeviction`), as an attacker varying a
 * 60 KB argument makes one: the attacker's own pages stop at its quota, and even pages from many
 * clients stop at the fleet's byte budget, with readable refusals, never an OOM. Other users' in-band
 * calls (their replay-guard writes) and their page questions keep working throughout.
 */
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { elicit, resolver, ToolError } from 'mcp-resolve';
import type { RedisFleet } from 'mcp-resolve/redis';
import { connectRedisFleet } from 'mcp-resolve/redis';

import { createRedisAnswerPageBackend } from '../../src/redis/answerPageBackend.js';
import type { AnswerPageStore } from '../../src/pageStore/store.js';
import { createAnswerPageStore } from '../../src/pageStore/store.js';
import type { RedisServer } from '../../scripts/lib/processes.js';
import { startRedisServer } from '../../scripts/lib/processes.js';
import { ALICE_CALL, REFUND_QUESTION } from '../answerPage/helpers.js';
import { accept, connectManual, newServer, onCleanup, textOf } from '../resolvers/helpers.js';

/** A question as large as a page may be: the attacker's 60 KB argument echoed in it. */
const LARGE = { ...REFUND_QUESTION, message: `Refund order ${'x'.repeat(60_000)}?` };

/** Opens pages of `client` (or of a fresh client each time) until one is refused; at most `most`. */
async function flood(store: AnswerPageStore, client: (index: number) => string, most: number) {
  for (let index = 0; index < most; index += 1) {
    const call = { ...ALICE_CALL, principal: undefined, argumentsDigest: `flood-${crypto.randomUUID()}` };
    try {
      await store.open(call, LARGE, client(index));
    } catch (error) {
      return { opened: index, refusal: error };
    }
  }
  return { opened: most, refusal: undefined };
}

describe('a flood of answer pages on a Redis with maxmemory 8mb and noeviction', () => {
  let redis: RedisServer;
  let fleet: RedisFleet;
  let store: AnswerPageStore;
  beforeAll(async () => {
    redis = await startRedisServer({ args: () => ['--maxmemory', '8mb'] });
    fleet = await connectRedisFleet({ url: redis.url });
    store = createAnswerPageStore({
      backend: await createRedisAnswerPageBackend(fleet.redis, { maxHeldBytes: 3_000_000 }),
    });
  });
  afterAll(async () => {
    await fleet?.close();
    await redis?.dispose();
  });

  const Approve = z.object({ approve: z.boolean() });
  const approval = resolver({ name: 'approval', args: { order: z.string() } }, ({ order }) =>
    elicit(`Refund ${order}?`, Approve),
  );

  /** Another user's in-band form call, start to end: its final round writes to the replay guard. */
  async function refund(order: string): Promise<string> {
    const server = newServer({ requestState: { replayStore: fleet.replayStore } }).tool(
      'refund',
      { input: { order: z.string() }, resolve: { decision: approval } },
      ({ order: id }) => `Refunded ${id}.`,
    );
    const client = await connectManual(server);
    const asked = await client.round('refund', { order });
    if (asked.kind !== 'input_required') throw new Error('expected a question');
    const final = { inputResponses: { approval: accept({ approve: true }) }, requestState: asked.requestState };
    const done = await client.round('refund', { order }, final);
    return done.kind === 'complete' ? textOf(done.result) : done.kind;
  }

  it('stops one client at its quota with a readable refusal, while others still get pages and finish calls', async () => {
    const { opened, refusal } = await flood(store, () => 'address:203.0.113.9', 500);
    expect(opened).toBe(16);
    expect(refusal).toBeInstanceOf(ToolError);
    expect((refusal as Error).message).toMatch(
      /16 questions open on pages for this client.*maxPagesPerClient.*retry after \d+ s\.$/,
    );
    expect(await refund('ORD-1')).toBe('Refunded ORD-1.');
    const page = await store.open({ ...ALICE_CALL, principal: 'bob' }, REFUND_QUESTION, 'bob');
    expect(await store.page(page.pageId)).toEqual(page);
  });

  it('stops pages from many clients at the byte budget, never at an OOM, and replay-guard writes still succeed', async () => {
    onCleanup(async () => void (await fleet.redis.flushAll()));
    const { opened, refusal } = await flood(store, (index) => `address:198.51.100.${index}`, 500);
    expect(opened).toBeGreaterThan(30);
    expect(opened).toBeLessThan(50);
    expect((refusal as Error).message).toMatch(/bytes of questions and answers on pages on this server.*maxHeldBytes/);
    const used = Number(/used_memory:(\d+)/.exec(await fleet.redis.info('memory'))?.[1]);
    expect(used).toBeLessThan(8 * 1024 * 1024 - 2_000_000);
    for (let index = 0; index < 20; index += 1) expect(await refund(`ORD-${index}`)).toBe(`Refunded ORD-${index}.`);
    await expect(fleet.redis.set('probe', 'x'.repeat(100_000))).resolves.toBe('OK');
  });
});
