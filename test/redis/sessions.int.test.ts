/**
 * The refund desk as a fleet over a real redis-server: three in-process instances, each with its
 * own Redis connections, behind a round-robin fetch with no affinity. Both eras complete every
 * call; a replayed final round is refused on every instance, also after all restart; a lost
 * Redis fails requests with a clear error instead of hanging.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { DualEraHandler } from '../../src/hosting/index.js';
import { createDualEraHandler } from '../../src/hosting/index.js';
import { INSTANCE_HEADER } from '../../src/contracts/index.js';
import type { RedisFleet } from '../../src/redis/index.js';
import { connectRedisFleet } from '../../src/redis/index.js';
import { connectHttp } from '../../src/testing/index.js';
import type { RedisServer } from '../../scripts/lib/processes.js';
import { startRedisServer } from '../../scripts/lib/processes.js';
import { KEY_A } from '../state/helpers.js';
import { hosted, openLegacySession, post } from '../../scripts/lib/wire.js';

const URL_ = new URL('http://localhost/mcp');
let redis: RedisServer;
let prefix = 0;
const running: Array<{ handler: DualEraHandler; fleet: RedisFleet }> = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterEach(async () => {
  await stopAll();
});
afterAll(async () => {
  await redis?.dispose();
});

async function stopAll(): Promise<void> {
  for (const { handler, fleet } of running.splice(0)) {
    await handler.close();
    await fleet.close();
  }
}

/**
 * The command deadline of an instance whose Redis commands are all expected to succeed: far past
 * any answer of a starved machine, so only a Redis that does not answer reaches it.
 */
const PATIENT_MS = 30_000;

/** How a test shapes its fleet. */
interface FleetOptions {
  /** Gets the instances' serving failures. */
  readonly onerror?: (error: Error) => void;
  /** Each instance's command deadline, by index (default {@link PATIENT_MS}). */
  readonly commandTimeoutMs?: readonly number[];
}

/** Starts `count` desk instances sharing Redis (under `keyPrefix`) and the sealing key. */
async function startFleet(count: number, keyPrefix: string, options: FleetOptions = {}) {
  const { onerror } = options;
  const instances: DualEraHandler[] = [];
  for (let index = 0; index < count; index++) {
    const fleet = await connectRedisFleet({
      url: redis.url,
      instanceId: `desk-${index}`,
      keyPrefix,
      commandTimeoutMs: options.commandTimeoutMs?.[index] ?? PATIENT_MS,
    });
    const desk = createRefundDesk({
      requestState: { keys: [KEY_A], replayStore: fleet.replayStore },
      onerror: () => {},
    });
    const handler = createDualEraHandler(desk.createServer, {
      sessionFleet: fleet.sessions,
      ...(onerror !== undefined && { onerror }),
    });
    running.push({ handler, fleet });
    instances.push(handler);
  }
  return instances;
}

interface Leg {
  readonly instance: string;
  readonly body: unknown;
  readonly headers: Headers;
}

function roundRobin(instances: () => DualEraHandler[]) {
  const legs: Leg[] = [];
  let next = 0;
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body: unknown = request.method === 'POST' ? await request.clone().json() : undefined;
    const pool = instances();
    const response = await hosted(pool[next++ % pool.length]!)(request);
    legs.push({ instance: response.headers.get(INSTANCE_HEADER) ?? 'none', body, headers: request.headers });
    return response;
  };
  return { fetch, legs };
}

const ANSWERS = {
  elicit: (params: { message: string }): { action: 'accept'; content: Record<string, boolean> } => ({
    action: 'accept',
    content: params.message.includes('Return them to stock') ? { restock: true } : { full: true },
  }),
};

const RECEIPT = { order_id: 'ORD-7002', refunded_cents: 4800, restocked: true, reason: 'arrived broken' };

function isFinalRound(body: unknown): boolean {
  const params = (body as { method?: string; params?: { requestState?: unknown } } | undefined)?.params;
  return (body as { method?: string }).method === 'tools/call' && typeof params?.requestState === 'string';
}

/** The JSON-RPC message of a response that is either JSON or one SSE event. */
async function messageOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  const data = text.startsWith('{')
    ? text
    : (text
        .split('\n')
        .find((line) => line.startsWith('data:'))
        ?.slice(5) ?? '{}');
  return JSON.parse(data) as Record<string, unknown>;
}

describe('the refund desk as a Redis fleet (round-robin, no affinity)', () => {
  it('completes a legacy call whose pushes are answered on other instances', async () => {
    const instances = await startFleet(3, `t${prefix++}:`);
    const { fetch, legs } = roundRobin(() => instances);
    const connection = await connectHttp(URL_, { era: 'legacy', ...ANSWERS, transportOptions: { fetch } });
    legs.length = 0;
    const result = await connection.client.callTool({
      name: 'refund_order',
      arguments: { order_id: 'ORD-7002', reason: 'arrived broken' },
    });
    expect(result.structuredContent, `the call's result: ${JSON.stringify(result)}`).toEqual(RECEIPT);
    // The call ran on one instance; at least one of its two answers was posted to another and relayed.
    // (The last answer's 202 may arrive after the call's result.)
    const isAnswer = (leg: Leg) => (leg.body as { result?: unknown } | undefined)?.result !== undefined;
    await expect.poll(() => legs.filter(isAnswer).length).toBe(2);
    const posts = legs.filter((leg) => leg.body !== undefined);
    const call = posts.find((leg) => (leg.body as { method?: string }).method === 'tools/call')!;
    const answers = posts.filter(isAnswer);
    expect(answers).toHaveLength(2);
    expect(answers.some((answer) => answer.instance !== call.instance)).toBe(true);
    await connection.close();
  });

  it('completes a modern call across instances, and refuses its replayed final round on every instance, before and after a restart', async () => {
    const keyPrefix = `t${prefix++}:`;
    let instances = await startFleet(3, keyPrefix);
    const { fetch, legs } = roundRobin(() => instances);
    const connection = await connectHttp(URL_, { era: 'modern', ...ANSWERS, transportOptions: { fetch } });
    const result = await connection.client.callTool({
      name: 'refund_order',
      arguments: { order_id: 'ORD-7002', reason: 'arrived broken' },
    });
    expect(result.structuredContent).toEqual(RECEIPT);
    const rounds = legs.filter((leg) => (leg.body as { method?: string } | undefined)?.method === 'tools/call');
    expect(rounds).toHaveLength(3);
    expect(new Set(rounds.map((leg) => leg.instance)).size).toBe(3);
    await connection.close();

    const { body: final, headers } = rounds.at(-1)!;
    expect(isFinalRound(final)).toBe(true);
    const replayHeaders = Object.fromEntries(headers);
    const replayEverywhere = async () => {
      for (const instance of instances) {
        const replayed = await messageOf(
          await post({ url: URL_, fetch: hosted(instance), headers: replayHeaders }, final),
        );
        expect(replayed.error).toEqual({
          code: -32602,
          message: 'Invalid or expired requestState',
          data: { reason: 'invalid_request_state' },
        });
      }
    };
    await replayEverywhere();
    await stopAll();
    instances = await startFleet(3, keyPrefix);
    await replayEverywhere();
  });

  it('answers 503 with the masked text and a ref when Redis does not answer, and serves the session again when it is back', async () => {
    const errors: Error[] = [];
    // The first instance only opens the session, while Redis answers; the second meets the frozen
    // Redis, so its deadline is short: its request must fail, and soon.
    const instances = await startFleet(2, `t${prefix++}:`, {
      onerror: (error) => errors.push(error),
      commandTimeoutMs: [PATIENT_MS, 500],
    });
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(instances[0]!) });
    const onSecond = { url: URL_, sessionId, fetch: hosted(instances[1]!) };
    redis.pause();
    try {
      const refused = await post(onSecond, { jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(refused.status).toBe(503);
      const { error } = (await refused.json()) as { error: { code: number; message: string } };
      expect(error.code).toBe(-32000);
      const ref = /^Internal error \(ref ([0-9a-f]{12})\): the server could not complete this request\./.exec(
        error.message,
      )?.[1];
      expect(ref).toBeDefined();
      // The cause (the Redis client's words) reaches the server's error sink under the same ref, never the client.
      expect(errors.map((cause) => cause.message)).toContainEqual(
        expect.stringMatching(new RegExp(`^The legacy session store failed to load the session: .+ \\[ref ${ref}\\]$`)),
      );
    } finally {
      redis.resume();
    }
    // The same instance serves the session again. Polled: on a starved machine one request of its
    // 500 ms deadline may also expire while Redis answers.
    let id = 2;
    await expect
      .poll(async () => (await post(onSecond, { jsonrpc: '2.0', id: id++, method: 'ping' })).status)
      .toBe(200);
  });

  it('ends a call at once, with a clear error, when its push waits while the Redis relay fails', async () => {
    // The call may run on either instance, and the one running it must give up on the frozen Redis
    // (its relay checks fail for 5 s, each within the deadline) well before the call's timeout: both
    // keep the library's default deadline (2 s), not a patient one.
    const instances = await startFleet(2, `t${prefix++}:`, { commandTimeoutMs: [2_000, 2_000] });
    const { fetch } = roundRobin(() => instances);
    let paused = false;
    const elicit = async (params: { message: string }) => {
      if (!paused) {
        // The first question waits for its human while Redis stops answering: its answer may be lost.
        paused = true;
        redis.pause();
        await new Promise((wake) => setTimeout(wake, 2_500));
      }
      return ANSWERS.elicit(params);
    };
    const connection = await connectHttp(URL_, { era: 'legacy', elicit, transportOptions: { fetch } });
    try {
      const result = await connection.client.callTool(
        { name: 'refund_order', arguments: { order_id: 'ORD-7002', reason: 'arrived broken' } },
        { timeout: 60_000 },
      );
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([
        {
          type: 'text',
          text: expect.stringMatching(
            /^The answer to the elicitation\/create request cannot reach this server\. Internal error \(ref [0-9a-f]{12}\): the server could not complete this request\./,
          ),
        },
      ]);
    } finally {
      redis.resume();
    }
    const again = await connection.client.callTool({
      name: 'refund_order',
      arguments: { order_id: 'ORD-7002', reason: 'arrived broken' },
    });
    expect(again.structuredContent).toEqual(RECEIPT);
    await connection.close();
  }, 120_000);

  it('delivers a relay only to a listening instance, and says whether this one listens', async () => {
    const keyPrefix = `t${prefix++}:`;
    const fleet = await connectRedisFleet({ url: redis.url, instanceId: 'solo', keyPrefix });
    try {
      expect(await fleet.sessions.listening()).toBe(false);
      const stop = await fleet.sessions.subscribe(() => {});
      expect(await fleet.sessions.listening()).toBe(true);
      await fleet.sessions.send('solo', { kind: 'ended', sessionId: 's1' });
      await expect(fleet.sessions.send('nobody', { kind: 'ended', sessionId: 's1' })).rejects.toThrow(
        'no instance "nobody" is listening',
      );
      await stop();
      expect(await fleet.sessions.listening()).toBe(false);
    } finally {
      await fleet.close();
    }
  });
});
