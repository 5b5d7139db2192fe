/**
 * The fleet relay over a real redis-server carries only what it may: answers for sessions and
 * pushes the shared store knows, each published at most once, none larger than
 * `maxRelayedAnswerBytes`, and none for an instance that does not listen (refused at once, in
 * words the official client reports). Redis counts what it received (`INFO stats`,
 * `INFO commandstats`), so the checks count PUBLISH commands and bytes, never durations.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { z } from 'zod';

import type { LegacySessionFleet } from '../../src/contracts/index.js';
import type { DualEraHandler } from '../../src/hosting/index.js';
import { createDualEraHandler } from '../../src/hosting/index.js';
import type { RedisConnection, RedisFleet } from '../../src/redis/index.js';
import { connectRedis, connectRedisFleet } from '../../src/redis/index.js';
import type { ServerSource } from '../../src/hosting/source.js';
import { pushElicit } from '../../src/mrtr/index.js';
import { McpResolveServer } from '../../src/server/server.js';
import { connectHttp } from '../../src/testing/index.js';
import type { RedisServer } from '../../scripts/lib/processes.js';
import { startRedisServer } from '../../scripts/lib/processes.js';
import { hosted, openLegacySession, post, SseReader } from '../../scripts/lib/wire.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';
import { partitionable } from '../fixtures/partitionable.js';

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

/**
 * The command deadline of an instance whose Redis commands are all expected to succeed: far past
 * any answer of a starved machine, so only a Redis that does not answer reaches it.
 */
const PATIENT_MS = 30_000;

/** How a test shapes its pair of instances. */
interface PairOptions {
  readonly maxRelayedAnswerBytes?: number;
  /** Each instance's command deadline, by index (default: the library's). */
  readonly commandTimeoutMs?: readonly (number | undefined)[];
  readonly server?: () => ServerSource;
  /** The fleet instance `index` uses (default: its Redis sessions as they are). */
  readonly fleet?: (index: number, sessions: LegacySessionFleet) => LegacySessionFleet;
}

/** Two instances `r-0` and `r-1` sharing sessions through the test's redis-server. */
async function startPair(options: PairOptions = {}) {
  const { maxRelayedAnswerBytes } = options;
  const keyPrefix = `relay${prefix++}:`;
  const instances: Array<{ handler: DualEraHandler; fleet: RedisFleet }> = [];
  for (const index of [0, 1]) {
    const commandTimeoutMs = options.commandTimeoutMs?.[index];
    const fleet = await connectRedisFleet({
      url: redis.url,
      instanceId: `r-${index}`,
      keyPrefix,
      ...(commandTimeoutMs !== undefined && { commandTimeoutMs }),
    });
    const handler = createDualEraHandler(options.server?.() ?? askNameServer, {
      sessionFleet: options.fleet?.(index, fleet.sessions) ?? fleet.sessions,
      ...(maxRelayedAnswerBytes !== undefined && { maxRelayedAnswerBytes }),
    });
    instances.push({ handler, fleet });
    running.push({ handler, fleet });
  }
  return instances as [(typeof instances)[0], (typeof instances)[0]];
}

/** Opens a legacy session on `handler` and calls `greet` there: the session, the call's stream and its push. */
async function greetOn(handler: DualEraHandler) {
  const sessionId = await openLegacySession({ url: URL_, fetch: hosted(handler) });
  const call = new SseReader(
    await post(
      { url: URL_, sessionId, fetch: hosted(handler) },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', arguments: {} } },
    ),
  );
  return { sessionId, call, push: await call.next() };
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
    const { sessionId, call, push } = await greetOn(first.handler);
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

  it('ends a waiting call with a clear error, relaying nothing, when the store loses its data (an empty restart)', async () => {
    const [first, second] = await startPair();
    const { sessionId, call, push } = await greetOn(first.handler);
    // The second instance holds a copy of the session; then the store loses everything, as an empty restart does.
    const onSecond = { url: URL_, sessionId, fetch: hosted(second.handler) };
    expect((await post(onSecond, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    await probe.flushAll();
    const traffic = await receivedDuring(async () => {
      await post(onSecond, answer(String(push.id), 100_000));
    });
    expect(traffic.publishes).toBe(0); // the answer can no longer be checked, so it is not relayed
    const reply = await call.next();
    expect(reply).toMatchObject({ id: 1, result: { isError: true } });
    expect(JSON.stringify(reply)).toContain("shared store lost this session's records");
  });

  it('relays an answer posted while Redis holds writes past the command deadline, once Redis is back (an abandoned take consumes nothing)', async () => {
    const takes: string[] = [];
    const [first, second] = await startPair({
      // The asking instance waits for Redis as long as it takes. The relaying one keeps the library's
      // default deadline (2 s): its take must give up while writes are held, and its retries (for
      // 5 s) must get through once they are not.
      commandTimeoutMs: [PATIENT_MS, undefined],
      fleet: (index, sessions) => (index === 0 ? sessions : heldFirstTake(sessions, takes)),
    });
    const { sessionId, call, push } = await greetOn(first.handler);
    const status = (await post({ url: URL_, sessionId, fetch: hosted(second.handler) }, answer(String(push.id), 10)))
      .status;
    expect(status).toBe(202);
    expect(takes[0]).toBe('no answer within 2000 ms');
    // The held take ran in Redis once writes resumed, past its deadline: it consumed nothing, so a
    // retry took the push and the answer reached the call.
    expect(takes.at(-1)).toBe('taken');
    expect(await call.next()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: `hello ${'x'.repeat(10)} (legacy)` }] },
    });
  });

  it('relays an answer whose first take ran in Redis but lost its reply (a starved instance): the take tried again gets the push', async () => {
    const takes: string[] = [];
    const [first, second] = await startPair({
      fleet: (index, sessions) => (index === 0 ? sessions : lostFirstReply(sessions, takes)),
    });
    const { sessionId, call, push } = await greetOn(first.handler);
    const status = (await post({ url: URL_, sessionId, fetch: hosted(second.handler) }, answer(String(push.id), 10)))
      .status;
    expect(status).toBe(202);
    // The first try consumed the push in Redis; its retry is the same take, so it gets the push again.
    expect(takes).toEqual(['lost: taken', 'taken']);
    expect(await call.next()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: `hello ${'x'.repeat(10)} (legacy)` }] },
    });
  });

  it('refuses an answer over maxRelayedAnswerBytes (default 1 MiB) and ends its call with a small relayed error', async () => {
    const [first, second] = await startPair();
    const { sessionId, call, push } = await greetOn(first.handler);
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

  it("ends the official client's call at once when the instance that asked stops while the human answers", async () => {
    const [first, second] = await startPair({ server: askingServer });
    const client = officialClient(first.handler, async () => {
      // The instance that asked stops (a deploy, a scale-in) before the human answers.
      await first.handler.close();
      client.target = second.handler;
      return { action: 'accept', content: { name: 'Ada' } };
    });
    const connection = await client.connect();
    const result = await connection.client.callTool({ name: 'ask', arguments: {} });
    expect(result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'The answer to the elicitation/create request cannot reach this server. Instance r-0, which asked, is shutting down. Call the tool again.',
        },
      ],
    });
    await connection.close();
  });

  it("refuses at once, publishing nothing, the official client's answer to an instance cut off from the fleet; the client reports it and its call ends", async () => {
    let partition: ReturnType<typeof partitionable> | undefined;
    const [first, second] = await startPair({
      server: askingServer,
      fleet: (index, sessions) => (index === 0 ? (partition = partitionable(sessions)).fleet : sessions),
    });
    let publishes = 0;
    const client = officialClient(first.handler, async () => {
      // The first instance loses Redis while the human answers: nothing it asks of the fleet succeeds any more.
      await partition!.cut();
      client.target = second.handler;
      publishes = (await received()).publishes;
      return { action: 'accept', content: { name: 'Ada' } };
    });
    const connection = await client.connect();
    const errors: string[] = [];
    connection.client.onerror = (error) => errors.push(error.message);
    const result = await connection.client.callTool({ name: 'ask', arguments: {} });
    // The call ends on its own stream: the instance that asked finds it cannot hear the fleet (masked: a backend failure).
    expect(result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: expect.stringMatching(
            /^The answer to the elicitation\/create request cannot reach this server\. Internal error \(ref [0-9a-f]{12}\): the server could not complete this request\./,
          ),
        },
      ],
    });
    // The answer, posted to the other instance, was refused at once and nothing was published.
    await expect.poll(() => client.answers.length).toBe(1);
    const message =
      'The answer to the elicitation/create request cannot reach this server. Instance r-0, which asked, cannot receive it: it is not listening (it stopped, or lost its connection to the fleet). Call the tool again.';
    expect(client.answers[0]!.status).toBe(503);
    expect(JSON.parse(client.answers[0]!.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });
    await expect.poll(() => errors.some((line) => line.includes(message))).toBe(true);
    expect((await received()).publishes).toBe(publishes);
    await connection.close();
  });
});

/**
 * `sessions`, whose first take of an answered push is sent while Redis holds writes (`CLIENT PAUSE
 * WRITE`, so the take's script waits in Redis), and writes resume only after that take gave up; how
 * each take ended goes to `takes`.
 */
function heldFirstTake(sessions: LegacySessionFleet, takes: string[]): LegacySessionFleet {
  let held = false;
  return {
    ...sessions,
    async takeAnswer(sessionId, pushId, take) {
      const first = !held;
      held = true;
      if (first) await probe.clientPause(60_000, 'WRITE');
      try {
        const taken = await sessions.takeAnswer(sessionId, pushId, take);
        takes.push(taken === undefined ? 'nothing to take' : 'taken');
        return taken;
      } catch (error) {
        takes.push(error instanceof Error ? error.message : String(error));
        throw error;
      } finally {
        // Writes resume as soon as the take gave up, as after a stall: Redis runs it past its deadline.
        if (first) await probe.clientUnpause();
      }
    },
  };
}

/**
 * `sessions`, whose first take of an answered push runs in Redis and takes the push, but whose reply
 * is lost, as when a starved instance's deadline fires before it reads a reply already in: the take
 * rejects as a timeout would; how each take ended goes to `takes`.
 */
function lostFirstReply(sessions: LegacySessionFleet, takes: string[]): LegacySessionFleet {
  let lost = false;
  return {
    ...sessions,
    async takeAnswer(sessionId, pushId, take) {
      const taken = await sessions.takeAnswer(sessionId, pushId, take);
      if (!lost) {
        lost = true;
        takes.push(`lost: ${taken === undefined ? 'nothing to take' : 'taken'}`);
        throw new Error('no answer within 2000 ms');
      }
      takes.push(taken === undefined ? 'nothing to take' : 'taken');
      return taken;
    },
  };
}

/** A server whose tool `ask` pushes one question on legacy sessions and greets with the answer. */
function askingServer() {
  return new McpResolveServer({ name: 'asking', version: '1.0.0' }).tool('ask', { input: {} }, async (_args, ctx) => {
    const answer = await pushElicit(ctx, 'Name?', z.object({ name: z.string() }));
    return answer.action === 'accept' ? `hello ${answer.value.name}` : 'nobody';
  });
}

/** The official client (through connectHttp) on a fetch that sends every request to `target` and records the responses to its answers. */
function officialClient(first: DualEraHandler, elicit: () => Promise<{ action: 'accept'; content: { name: string } }>) {
  const answers: Array<{ status: number; body: string }> = [];
  const state = {
    target: first,
    answers,
    fetch: async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      const isAnswer = request.method === 'POST' && 'result' in ((await request.clone().json()) as object);
      const response = await hosted(state.target)(request);
      if (isAnswer) answers.push({ status: response.status, body: await response.clone().text() });
      return response;
    },
    connect: () => connectHttp(URL_, { era: 'legacy', elicit, transportOptions: { fetch: state.fetch } }),
  };
  return state;
}
