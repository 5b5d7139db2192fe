/**
 * `attempts` across calls on the page link (both eras, over the server's fetch handler), and
 * across a fleet: two servers sharing a real redis-server count the same guesses, so the lock
 * refused on one is refused on the other.
 */
import type { ElicitResult } from '@modelcontextprotocol/client';
import { elicit, McpResolveServer, resolver } from 'mcp-resolve';
import type { McpResolveServerOptions } from 'mcp-resolve';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createDualEraHandler } from '../../src/hosting/index.js';
import type { DualEraHandler } from '../../src/hosting/index.js';
import { connectRedis, createRedisAttemptStore } from '../../src/redis/index.js';
import type { RedisConnection } from '../../src/redis/index.js';
import type { TestConnection } from '../../src/testing/index.js';
import { answerPage, connectHttp } from '../../src/testing/index.js';
import type { RedisServer } from '../../scripts/lib/processes.js';
import { startRedisServer } from '../../scripts/lib/processes.js';
import { call, connect, ERAS, textOf } from '../resolvers/helpers.js';
import { closedQuestion, lastAttempt } from './spent.js';

const Code = z.object({ code: z.string().meta({ title: 'Code' }) });
const WRONG = "Resolver 'code': the answer was not accepted. That is not the code.";

/** A lock whose `unlock` tool asks for a 4-digit code (`4821`), 3 attempts; every call acts for alice (counted across calls). */
function lock(options: McpResolveServerOptions) {
  const code = resolver({ name: 'code' }, () =>
    elicit('Enter the code', Code, {
      attempts: 3,
      check: ({ code: guess }) => (guess === '4821' ? undefined : 'That is not the code.'),
    }),
  );
  const sealing = { requestState: { keys: [new Uint8Array(32).fill(9)] } };
  return new McpResolveServer(
    { name: 'lock', version: '1.0.0' },
    { ...sealing, principal: () => 'alice', ...options },
  ).tool('unlock', { resolve: { code } }, () => 'Unlocked');
}

const ENDPOINT = new URL('http://localhost/mcp');
const linkIn = (text: string): string => /https?:\/\/\S+/.exec(text)?.[0] ?? 'no link';

let handler: DualEraHandler | undefined;
let connection: TestConnection | undefined;
afterEach(async () => {
  await connection?.close();
  await handler?.close();
});

describe.each(ERAS)('attempts across calls, on the page link (%s)', (era) => {
  it('refuses the answer given on the page once 3 were refused', async () => {
    const served = createDualEraHandler(lock({ answerPage: { anonymousLinksShareAnswers: true } }));
    handler = served;
    connection = await connectHttp(ENDPOINT, {
      era,
      capabilities: {},
      transportOptions: {
        fetch: (input, init) => {
          const request = new Request(input, init);
          request.headers.set('host', ENDPOINT.host);
          return served.fetch(request);
        },
      },
    });
    const { client } = connection;
    const unlock = async () => textOf(await client.callTool({ name: 'unlock', arguments: {} }));
    const guess = (link: string, code: string) =>
      answerPage(link, { action: 'accept', content: { code } }, { via: served });
    let text = await unlock();
    for (const code of ['0000', '0001']) {
      expect((await guess(linkIn(text), code)).saved).toBe(true);
      text = await unlock();
      expect(text).toContain('That is not the code.');
    }
    await guess(linkIn(text), '0002');
    expect(await unlock()).toMatch(lastAttempt(WRONG));
    // The next call hands out a new link; the right code given there is refused unread.
    await guess(linkIn(await unlock()), '4821');
    expect(await unlock()).toMatch(closedQuestion('code'));
  });
});

describe('attempts across a fleet sharing Redis', () => {
  let redis: RedisServer;
  const connections: RedisConnection[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    for (const open of connections.splice(0)) await open.destroy();
    await redis?.dispose();
  });

  /** Every Redis command here is expected to succeed: its deadline is far past any answer of a starved machine. */
  const PATIENT = { commandTimeoutMs: 30_000 };

  /** One fleet member: a server counting in the shared Redis. */
  async function member(keyPrefix: string): Promise<McpResolveServer> {
    const redisConnection = await connectRedis(redis.url, PATIENT);
    connections.push(redisConnection);
    const store = createRedisAttemptStore(redisConnection, { keyPrefix, ...PATIENT });
    return lock({ answerAttempts: { store } });
  }

  /** A person who types each guess in turn (then cancels). */
  const guesses =
    (...codes: string[]) =>
    (): ElicitResult => {
      const next = codes.shift();
      return next === undefined ? { action: 'cancel' } : { action: 'accept', content: { code: next } };
    };

  it.each(ERAS)('refuses on one instance the lock whose guesses another refused (%s)', async (era) => {
    const [a, b] = [await member(`test:${era}:`), await member(`test:${era}:`)];
    const started = Date.now();
    const onA = await connect(a, { era, elicit: guesses('0000', '0001') });
    expect(textOf(await call(onA, 'unlock'))).toContain("'Enter the code' was cancelled".replaceAll("'", '"'));
    const onB = await connect(b, { era, elicit: guesses('0002') });
    expect(textOf(await call(onB, 'unlock'))).toMatch(lastAttempt(WRONG));
    const again = await connect(a, { era, elicit: guesses('4821') });
    const refused = textOf(await call(again, 'unlock'));
    expect(refused).toMatch(closedQuestion('code'));
    // The window is Redis's: its key expires 15 minutes after the first refused guess, which came
    // at most `elapsed` seconds ago (however slow the machine).
    const elapsed = Math.ceil((Date.now() - started) / 1_000);
    const retry = Number(/retry in (\d+) s/.exec(refused)?.[1]);
    expect(retry).toBeLessThanOrEqual(900);
    expect(retry).toBeGreaterThanOrEqual(900 - elapsed);
  });

  it('takes an answer back that was not refused: the key goes, the window with it', async () => {
    const redisConnection = await connectRedis(redis.url, PATIENT);
    connections.push(redisConnection);
    const store = createRedisAttemptStore(redisConnection, { keyPrefix: 'test:uncount:', ...PATIENT });
    expect(await store.count('k', 60_000)).toEqual({ count: 1, retryMs: expect.any(Number) });
    expect((await store.count('k', 60_000)).count).toBe(2);
    await store.uncount('k');
    await store.uncount('k');
    expect(await redisConnection.exists('{test:uncount:}k')).toBe(0);
    // Taking back after the window ended writes nothing (no key without expiry).
    await store.uncount('k');
    expect(await redisConnection.exists('{test:uncount:}k')).toBe(0);
  });
});
