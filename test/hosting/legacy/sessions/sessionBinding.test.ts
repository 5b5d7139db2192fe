/**
 * A 2025-11-25 session belongs to the principal that opened it (issue 47, item 3), on one
 * instance and on a fleet (two instances on the in-memory hub), over real HTTP on loopback: every
 * request of another principal (or of none) on it is answered exactly as a made-up session id is;
 * push ids are random; an anonymous server keeps serving whoever holds a session's id.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';

import { createMemorySessionHub } from '../../../../src/contracts/index.js';
import { createDualEraHandler } from '../../../../src/hosting/index.js';
import type { HttpServerHandle, ServeHttpOptions } from '../../../../src/node/index.js';
import { serveHttp } from '../../../../src/node/index.js';
import { askNameServer } from '../../../testing/fixtures/askNameServer.js';
import type { Target } from '../../../../scripts/lib/wire.js';
import { SseReader, openLegacySession, post, send } from '../../../../scripts/lib/wire.js';
import { as, authenticateByName as authenticate, MADE_UP_SESSION } from '../../../fixtures/bearerNames.js';

const GREET = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'greet', arguments: {} } };
const PING = { jsonrpc: '2.0', id: 9, method: 'ping' };

const served: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((server) => server.close()));
});
async function serve(options: ServeHttpOptions = {}): Promise<URL> {
  const server = await serveHttp(askNameServer, { authenticate, ...options });
  served.push(server);
  return server.url;
}

/** Status and body text of a response, as a client sees them. */
async function seen(response: Response): Promise<{ status: number; body: string }> {
  return { status: response.status, body: await response.text() };
}

/** What the same request gets on a made-up session id. */
function onMadeUp(target: Target, init: Parameters<typeof send>[1]) {
  return send({ ...target, sessionId: MADE_UP_SESSION }, init).then(seen);
}

/** Starts alice's `greet` call and reads its push (an elicitation) off the call's stream. */
async function greetUntilPush(alice: Target): Promise<{ events: SseReader; push: Record<string, unknown> }> {
  const events = new SseReader(await post(alice, GREET));
  return { events, push: await events.next() };
}

const answer = (id: unknown, name: string) => ({
  jsonrpc: '2.0' as const,
  id: String(id),
  result: { action: 'accept', content: { name } },
});

describe('a session of an authenticated server, on one instance', () => {
  it("refuses bob's answer to alice's push exactly as a made-up session; her own answer completes her call", async () => {
    const url = await serve();
    const alice: Target = { url, headers: as('alice') };
    alice.sessionId = await openLegacySession(alice);
    const { events, push } = await greetUntilPush(alice);
    expect(push).toMatchObject({
      method: 'elicitation/create',
      id: expect.stringMatching(/^mcpr:local:[0-9a-f]{32}$/),
    });
    const bob: Target = { ...alice, headers: as('bob') };
    const refused = await seen(await post(bob, answer(push.id, 'Bob')));
    expect(refused).toEqual(await onMadeUp(bob, { method: 'POST', body: answer(push.id, 'Bob') }));
    expect(refused.status).toBe(404);
    expect((await post(alice, answer(push.id, 'Ada'))).status).toBe(202);
    expect(await events.next()).toMatchObject({ id: 5, result: { content: [{ text: 'hello Ada (legacy)' }] } });
  });

  it("refuses bob's tools/call, GET and DELETE on alice's session exactly as a made-up session", async () => {
    const url = await serve();
    const alice: Target = { url, headers: as('alice') };
    alice.sessionId = await openLegacySession(alice);
    const bob: Target = { ...alice, headers: as('bob') };
    for (const init of [{ method: 'POST', body: GREET }, { method: 'GET' }, { method: 'DELETE' }]) {
      const refused = await seen(await send(bob, init));
      expect(refused.status).toBe(404);
      expect(refused).toEqual(await onMadeUp(bob, init));
    }
    expect((await post(alice, PING)).status).toBe(200);
  });

  it('refuses a request carrying no principal on a session opened with one, exactly as a made-up session', async () => {
    const handler = createDualEraHandler(askNameServer);
    try {
      const url = new URL('http://localhost/mcp');
      const headers = { host: 'localhost', ...as('alice') };
      const authInfo = (request: Request) => authenticate(request) as AuthInfo;
      const alice: Target = {
        url,
        headers,
        fetch: (request) => handler.fetch(request, { authInfo: authInfo(request) }),
      };
      alice.sessionId = await openLegacySession(alice);
      const nobody: Target = {
        url,
        sessionId: alice.sessionId,
        headers: { host: 'localhost' },
        fetch: (request) => handler.fetch(request),
      };
      const refused = await seen(await post(nobody, PING));
      expect(refused.status).toBe(404);
      expect(refused).toEqual(await onMadeUp(nobody, { method: 'POST', body: PING }));
      expect((await post(alice, PING)).status).toBe(200);
    } finally {
      await handler.close();
    }
  });

  it('gives pushes random ids, never the sequence 0, 1, 2', async () => {
    const url = await serve();
    const alice: Target = { url, headers: as('alice') };
    alice.sessionId = await openLegacySession(alice);
    const ids: unknown[] = [];
    for (let call = 0; call < 3; call++) {
      const { events, push } = await greetUntilPush(alice);
      ids.push(push.id);
      await post(alice, answer(push.id, 'Ada'));
      await events.next();
    }
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^mcpr:local:[0-9a-f]{32}$/);
  });
});

describe('an anonymous server (no authenticate): unchanged, documented', () => {
  it("serves whoever holds a session's id, as the 2025-11-25 transport does; push ids are random still", async () => {
    const server = await serveHttp(askNameServer);
    served.push(server);
    const opener: Target = { url: server.url };
    opener.sessionId = await openLegacySession(opener);
    const other: Target = { url: server.url, sessionId: opener.sessionId };
    expect((await post(other, PING)).status).toBe(200);
    const { events, push } = await greetUntilPush(opener);
    expect(push.id).toMatch(/^mcpr:local:[0-9a-f]{32}$/);
    expect((await post(other, answer(push.id, 'Eve'))).status).toBe(202);
    expect(await events.next()).toMatchObject({ result: { content: [{ text: 'hello Eve (legacy)' }] } });
  });
});

describe('a session of an authenticated server, on a fleet', () => {
  async function fleetOfTwo() {
    const hub = createMemorySessionHub();
    const errors: string[] = [];
    const onerror = (error: Error) => void errors.push(error.message);
    const a = await serve({ sessionFleet: hub.member('a'), onerror });
    const b = await serve({ sessionFleet: hub.member('b'), onerror });
    return { hub, a, b, errors };
  }

  it("refuses bob's answer relayed from another instance, and a relayed answer of another principal", async () => {
    const { hub, a, b, errors } = await fleetOfTwo();
    const onA: Target = { url: a, headers: as('alice') };
    onA.sessionId = await openLegacySession(onA);
    const { events, push } = await greetUntilPush(onA);
    expect(push.id).toMatch(/^mcpr:a:[0-9a-f]{32}$/);
    const bobOnB: Target = { url: b, sessionId: onA.sessionId, headers: as('bob') };
    const refused = await seen(await post(bobOnB, answer(push.id, 'Bob')));
    expect(refused.status).toBe(404);
    expect(refused).toEqual(await onMadeUp(bobOnB, { method: 'POST', body: answer(push.id, 'Bob') }));
    // A relay naming another principal (or none) reaches nothing of alice's session on instance a.
    const intruder = hub.member('intruder');
    const sessionId = onA.sessionId;
    await intruder.send('a', { kind: 'answer', sessionId, owner: 'ab'.repeat(32), message: answer(push.id, 'Bob') });
    await intruder.send('a', { kind: 'answer', sessionId, message: answer(push.id, 'Bob') });
    await expect.poll(() => errors.filter((line) => line.includes('belongs to another principal')).length).toBe(2);
    const aliceOnB: Target = { ...bobOnB, headers: as('alice') };
    expect((await post(aliceOnB, answer(push.id, 'Ada'))).status).toBe(202);
    expect(await events.next()).toMatchObject({ id: 5, result: { content: [{ text: 'hello Ada (legacy)' }] } });
  });

  it("refuses bob's tools/call, GET and DELETE on alice's session on another instance exactly as a made-up session", async () => {
    const { a, b } = await fleetOfTwo();
    const onA: Target = { url: a, headers: as('alice') };
    onA.sessionId = await openLegacySession(onA);
    const bobOnB: Target = { url: b, sessionId: onA.sessionId, headers: as('bob') };
    for (const init of [{ method: 'POST', body: GREET }, { method: 'GET' }, { method: 'DELETE' }]) {
      const refused = await seen(await send(bobOnB, init));
      expect(refused.status).toBe(404);
      expect(refused).toEqual(await onMadeUp(bobOnB, init));
    }
    expect((await post({ ...bobOnB, headers: as('alice') }, PING)).status).toBe(200);
  });
});
