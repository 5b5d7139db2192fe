/**
 * Issue 47, items 3 and 4, on a fleet over a real redis-server (two instances served over HTTP on
 * loopback, each with its own Redis connections): a session belongs to the principal that opened
 * it, also for answers relayed between instances and for resumption; the record in Redis holds only
 * a digest of that principal; a Redis that is down reaches clients as the masked text with a ref.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import type { RedisConnection, RedisFleet } from '../../src/redis/index.js';
import { connectRedis, connectRedisFleet } from '../../src/redis/index.js';
import type { RedisServer } from '../../scripts/lib/processes.js';
import { startRedisServer } from '../../scripts/lib/processes.js';
import type { Target } from '../../scripts/lib/wire.js';
import { SseReader, openLegacySession, post, send } from '../../scripts/lib/wire.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';
import { as, authenticateByName as authenticate, MADE_UP_SESSION } from '../fixtures/bearerNames.js';

const GREET = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'greet', arguments: {} } };
const MASKED = /^Internal error \(ref ([0-9a-f]{12})\): the server could not complete this request\./;

const answer = (id: unknown, name: string) => ({
  jsonrpc: '2.0' as const,
  id: String(id),
  result: { action: 'accept', content: { name } },
});

let redis: RedisServer;
let probe: RedisConnection;
let prefix = 0;
const running: Array<{ server: HttpServerHandle; fleet: RedisFleet }> = [];

beforeAll(async () => {
  redis = await startRedisServer();
  probe = await connectRedis(redis.url);
});
afterEach(async () => {
  if (!redis.running()) await redis.restart();
  for (const { server, fleet } of running.splice(0)) {
    await server.close();
    await fleet.close();
  }
});
afterAll(async () => {
  await probe?.destroy();
  await redis?.dispose();
});

/** Instances `s-0` and `s-1` sharing sessions through Redis; `errors` is what their error sink received. */
async function startPair() {
  const keyPrefix = `binding${prefix++}:`;
  const errors: Error[] = [];
  const urls: URL[] = [];
  const fleets: RedisFleet[] = [];
  for (const index of [0, 1]) {
    const fleet = await connectRedisFleet({
      url: redis.url,
      instanceId: `s-${index}`,
      keyPrefix,
      // Every command here is expected to succeed, or to fail at once on a stopped Redis (the client
      // is offline): no test needs a deadline to expire, so none may on a starved machine.
      commandTimeoutMs: 30_000,
    });
    const server = await serveHttp(askNameServer, {
      authenticate,
      sessionFleet: fleet.sessions,
      onerror: (error) => errors.push(error),
    });
    running.push({ server, fleet });
    urls.push(server.url);
    fleets.push(fleet);
  }
  return { a: urls[0]!, b: urls[1]!, fleets, errors, keyPrefix };
}

/** The event id a call's response stream opens with (its priming event). */
async function firstEventId(response: Response): Promise<string | undefined> {
  const { value } = await (response.body as ReadableStream<Uint8Array>).getReader().read();
  return /^id: (.+)$/m.exec(new TextDecoder().decode(value))?.[1];
}

async function seen(response: Response): Promise<{ status: number; body: string }> {
  return { status: response.status, body: await response.text() };
}

describe('a session on a Redis fleet', () => {
  it("refuses bob's answer on another instance exactly as a made-up session, and drops a relay of another principal", async () => {
    const { a, b, fleets, errors, keyPrefix } = await startPair();
    const alice: Target = { url: a, headers: as('alice') };
    alice.sessionId = await openLegacySession(alice);
    // The record holds a digest of alice's principal, never the principal itself.
    const [recordKey] = await probe.keys(`*${keyPrefix}*record:${alice.sessionId}`);
    const record = await probe.get(recordKey!);
    expect(record).toMatch(/"owner":"[0-9a-f]{64}"/);
    expect(record).not.toContain('alice');
    const events = new SseReader(await post(alice, GREET));
    const push = await events.next();
    expect(push.id).toMatch(/^mcpr:s-0:[0-9a-f]{32}$/);
    const bobOnB: Target = { url: b, sessionId: alice.sessionId, headers: as('bob') };
    const refused = await seen(await post(bobOnB, answer(push.id, 'Bob')));
    const madeUp = await seen(await post({ ...bobOnB, sessionId: MADE_UP_SESSION }, answer(push.id, 'Bob')));
    expect(refused.status).toBe(404);
    expect(refused).toEqual(madeUp);
    // A relay published straight to s-0 over Redis, naming another owner, reaches nothing of alice's session.
    const message = answer(push.id, 'Bob');
    await fleets[1]!.sessions.send('s-0', {
      kind: 'answer',
      sessionId: alice.sessionId,
      owner: 'ab'.repeat(32),
      message,
    });
    await expect.poll(() => errors.some((error) => error.message.includes('belongs to another principal'))).toBe(true);
    expect((await post({ ...bobOnB, headers: as('alice') }, answer(push.id, 'Ada'))).status).toBe(202);
    expect(await events.next()).toMatchObject({ id: 5, result: { content: [{ text: 'hello Ada (legacy)' }] } });
  });

  it('refuses a Last-Event-ID of alice’s stream from bob, and on a made-up session, exactly as a made-up session', async () => {
    const { a, b } = await startPair();
    const alice: Target = { url: a, headers: as('alice') };
    alice.sessionId = await openLegacySession(alice);
    const call = await post(alice, GREET, { 'mcp-protocol-version': '2025-11-25' });
    const eventId = await firstEventId(call);
    expect(eventId).toMatch(/^mcpr-stream:s-0:/);
    const resume = (target: Target) =>
      send(target, { method: 'GET', headers: { 'last-event-id': eventId! } }).then(seen);
    const unknown = await seen(
      await send({ url: b, sessionId: MADE_UP_SESSION, headers: as('bob') }, { method: 'GET' }),
    );
    expect(unknown.status).toBe(404);
    expect(await resume({ url: b, sessionId: MADE_UP_SESSION, headers: as('bob') })).toEqual(unknown);
    expect(await resume({ url: b, sessionId: alice.sessionId, headers: as('bob') })).toEqual(unknown);
    expect((await resume({ url: b, sessionId: alice.sessionId, headers: as('alice') })).status).toBe(200);
  });

  it('answers with the masked text and a ref, never the Redis client’s words, when Redis is down', async () => {
    const { a, b, errors } = await startPair();
    const alice: Target = { url: a, headers: as('alice') };
    alice.sessionId = await openLegacySession(alice);
    const call = await post(alice, GREET, { 'mcp-protocol-version': '2025-11-25' });
    const eventId = await firstEventId(call);
    await redis.stop(true);
    const onB: Target = { url: b, sessionId: alice.sessionId, headers: as('alice') };
    const answers = [
      await post(onB, { jsonrpc: '2.0', id: 1, method: 'ping' }),
      await send(onB, { method: 'GET', headers: { 'last-event-id': eventId! } }),
      await send(onB, { method: 'DELETE' }),
    ];
    for (const response of answers) {
      const body = await response.text();
      expect(response.status).toBe(503);
      expect(body).not.toMatch(/offline|ECONNREFUSED|Redis|socket/i);
      const ref = MASKED.exec((JSON.parse(body) as { error: { message: string } }).error.message)?.[1];
      expect(ref).toBeDefined();
      // The cause reaches the server's error sink under the same ref.
      expect(errors.some((error) => error.message.endsWith(`[ref ${ref}]`))).toBe(true);
    }
  });
});
