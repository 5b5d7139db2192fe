/**
 * The fleet relay over a real redis-server carries only what it may: answers for sessions and
 * pushes the shared store knows, each published at most once, none larger than
 * `maxRelayedAnswerBytes`, and none for an instance that does not listen (refused at once, in
 * words the official client reports). Redis counts what it received (`INFO stats`,
 * `INFO commandstats`), so the checks count PUBLISH commands and bytes, never durations.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { DualEraHandler } from '../../src/hosting/index.js';
import { createDualEraHandler } from '../../src/hosting/index.js';
import type { RedisConnection, RedisFleet } from '../../src/redis/index.js';
import { connectRedis, connectRedisFleet } from '../../src/redis/index.js';
import { connectHttp } from '../../src/testing/index.js';
import type { RedisServer } from '../../scripts/lib/processes.js';
import { startRedisServer } from '../../scripts/lib/processes.js';
import { SseReader, openLegacySession, post } from '../../scripts/lib/wire.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';

const URL_ = new URL('http://localhost/mcp');
let redis: RedisServer;
let probe: RedisConnection;
let prefix = 0;
const running: Array<{ handler: DualEraHandler; fleet: RedisFleet }> = [];

beforeAll(async () => {
  redis = await startRedisServer();
  probe = await connectRedis(redis.url);
});
afterEach(async () => {
  for (const { handler, fleet } of running.splice(0)) {
    await handler.close();
    await fleet.close();
  }
});
afterAll(async () => {
  await probe?.destroy();
  await redis?.dispose();
});

/** Two instances `r-0` and `r-1` sharing sessions through the test's redis-server. */
async function startPair(maxRelayedAnswerBytes?: number) {
  const keyPrefix = `relay${prefix++}:`;
  const instances: Array<{ handler: DualEraHandler; fleet: RedisFleet }> = [];
  for (const index of [0, 1]) {
    const fleet = await connectRedisFleet({ url: redis.url, instanceId: `r-${index}`, keyPrefix });
    const handler = createDualEraHandler(askNameServer, {
      sessionFleet: fleet.sessions,
      ...(maxRelayedAnswerBytes !== undefined && { maxRelayedAnswerBytes }),
    });
    instances.push({ handler, fleet });
    running.push({ handler, fleet });
  }
  return instances as [(typeof instances)[0], (typeof instances)[0]];
}

function hosted(handler: DualEraHandler) {
  return (request: Request): Promise<Response> => {
    const headers = new Headers(request.headers);
    headers.set('host', 'localhost');
    return handler.fetch(new Request(request, { headers }));
  };
}

/** What Redis has received so far: PUBLISH commands and bytes from every client. */
async function received(): Promise<{ publishes: number; bytes: number }> {
  const stats = await probe.info('stats');
  const commands = await probe.info('commandstats');
  return {
    publishes: Number(/cmdstat_publish:calls=(\d+)/.exec(commands)?.[1] ?? 0),
    bytes: Number(/total_net_input_bytes:(\d+)/.exec(stats)?.[1]),
  };
}

/** What Redis received while `run` ran. */
async function receivedDuring(run: () => Promise<void>): Promise<{ publishes: number; bytes: number }> {
  const before = await received();
  await run();
  const after = await received();
  return { publishes: after.publishes - before.publishes, bytes: after.bytes - before.bytes };
}

const answer = (id: string, nameBytes: number) => ({
  jsonrpc: '2.0',
  id,
  result: { action: 'accept', content: { name: 'x'.repeat(nameBytes) } },
});

describe('the fleet relay over Redis carries only what it may', () => {
  it('puts nothing through Redis for answers posted without a live session, to a live or a missing instance', async () => {
    const [, second] = await startPair();
    const forged = { url: URL_, sessionId: 'no-such-session', fetch: hosted(second.handler) };
    const statuses: number[] = [];
    const traffic = await receivedDuring(async () => {
      const posts = ['mcpr:r-0:1', 'mcpr:ghost:1'].flatMap((id) =>
        Array.from({ length: 5 }, () => post(forged, answer(id, 1_000_000))),
      );
      for (const response of await Promise.all(posts)) statuses.push(response.status);
    });
    expect(statuses).toEqual(Array(10).fill(404));
    expect(traffic.publishes).toBe(0);
    expect(traffic.bytes).toBeLessThan(100_000); // 10 MB posted
  });

  it('publishes a real answer once, and drops its copies and answers to pushes nobody made', async () => {
    const [first, second] = await startPair();
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(first.handler) });
    const call = new SseReader(
      await post(
        { url: URL_, sessionId, fetch: hosted(first.handler) },
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'greet', arguments: {} },
        },
      ),
    );
    const push = await call.next();
    const onSecond = { url: URL_, sessionId, fetch: hosted(second.handler) };
    const statuses: number[] = [];
    const traffic = await receivedDuring(async () => {
      for (const id of [String(push.id), String(push.id), 'mcpr:r-0:99', 'mcpr:ghost:1']) {
        statuses.push((await post(onSecond, answer(id, 100_000))).status);
      }
    });
    expect(statuses).toEqual([202, 202, 202, 202]);
    expect(traffic.publishes).toBe(1);
    expect(traffic.bytes).toBeLessThan(200_000); // one 100 kB answer, not four
    expect(await call.next()).toMatchObject({ id: 1, result: { content: [{ type: 'text' }] } });
  });

  it('refuses an answer over maxRelayedAnswerBytes (default 1 MiB) and ends its call with a small relayed error', async () => {
    const [first, second] = await startPair();
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(first.handler) });
    const call = new SseReader(
      await post(
        { url: URL_, sessionId, fetch: hosted(first.handler) },
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'greet', arguments: {} },
        },
      ),
    );
    const push = await call.next();
    let status = 0;
    const traffic = await receivedDuring(async () => {
      status = (await post({ url: URL_, sessionId, fetch: hosted(second.handler) }, answer(String(push.id), 1_100_000)))
        .status;
    });
    expect(status).toBe(413);
    expect(traffic.publishes).toBe(1);
    expect(traffic.bytes).toBeLessThan(100_000);
    expect(await call.next()).toMatchObject({ id: 1, result: { isError: true } });
  });

  it("refuses at once, publishing nothing, the official client's answer to an instance that stopped; the client reports it", async () => {
    const [first, second] = await startPair();
    let target = first.handler;
    const answers: Array<{ status: number; body: string }> = [];
    const errors: string[] = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      const isAnswer = request.method === 'POST' && 'result' in ((await request.clone().json()) as object);
      const response = await hosted(target)(request);
      if (isAnswer) answers.push({ status: response.status, body: await response.clone().text() });
      return response;
    };
    let publishes = 0;
    const connection = await connectHttp(URL_, {
      era: 'legacy',
      elicit: async () => {
        // The instance that asked stops before the human answers; the answer reaches the other one.
        await first.handler.close();
        target = second.handler;
        publishes = (await received()).publishes;
        return { action: 'accept', content: { name: 'Ada' } };
      },
      transportOptions: { fetch },
    });
    connection.client.onerror = (error) => errors.push(error.message);
    void connection.client.callTool({ name: 'greet', arguments: {} }).catch(() => undefined);
    await expect.poll(() => answers.length).toBe(1);
    const message =
      'The answer to the elicitation/create request cannot reach this server. Instance r-0, which asked, cannot receive it: it is not listening (it stopped, or lost its connection to the fleet). Call the tool again.';
    expect(answers[0]!.status).toBe(503);
    expect(JSON.parse(answers[0]!.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });
    await expect.poll(() => errors.some((line) => line.includes(message))).toBe(true);
    expect((await received()).publishes).toBe(publishes);
    await connection.close();
  });
});
