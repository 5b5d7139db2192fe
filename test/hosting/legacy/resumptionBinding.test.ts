/**
 * Resumption after the session (issue 47, item 4), over real HTTP on two instances of a fleet (the
 * in-memory hub): a `Last-Event-ID` is honoured only on a session that exists and is the caller's,
 * for an event id one of that session's streams opened with; anything else is answered exactly as
 * a made-up session id is, so it tells nothing about the fleet's instances.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { createMemorySessionHub } from '../../../src/contracts/index.js';
import type { HttpServerHandle } from '../../../src/node/index.js';
import { serveHttp } from '../../../src/node/index.js';
import { askNameServer } from '../../testing/fixtures/askNameServer.js';
import type { Target } from '../../../scripts/lib/wire.js';
import { openLegacySession, post, send } from '../../../scripts/lib/wire.js';
import { as, authenticateByName as authenticate, MADE_UP_SESSION } from '../../fixtures/bearerNames.js';

const GREET = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'greet', arguments: {} } };
const VERSION = { 'mcp-protocol-version': '2025-11-25' };

const served: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((server) => server.close()));
});

/** Two instances sharing an in-memory hub; a's GET streams and calls run there. */
async function fleetOfTwo(): Promise<{ a: URL; b: URL }> {
  const hub = createMemorySessionHub();
  const a = await serveHttp(askNameServer, { authenticate, sessionFleet: hub.member('a') });
  const b = await serveHttp(askNameServer, { authenticate, sessionFleet: hub.member('b') });
  served.push(a, b);
  return { a: a.url, b: b.url };
}

/** The event id a call's response stream opens with (its priming event). */
async function firstEventId(response: Response): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (!text.includes('\n\n')) {
    const { done, value } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  const id = /^id: (.+)$/m.exec(text)?.[1];
  if (id === undefined) throw new Error(`no event id in ${JSON.stringify(text)}`);
  return id;
}

async function seen(response: Response): Promise<{ status: number; body: string }> {
  return { status: response.status, body: await response.text() };
}

const resume = (target: Target, lastEventId: string) =>
  send(target, { method: 'GET', headers: { 'last-event-id': lastEventId } }).then(seen);

describe('a Last-Event-ID', () => {
  it("is honoured on the caller's own session, for an event id one of its streams opened with", async () => {
    const { a, b } = await fleetOfTwo();
    const alice: Target = { url: a, headers: as('alice') };
    alice.sessionId = await openLegacySession(alice);
    const eventId = await firstEventId(await post(alice, GREET, VERSION));
    expect(eventId).toMatch(/^mcpr-stream:a:%5B5%5D:[A-Za-z0-9_-]{43}$/);
    const resumed = await resume({ ...alice, url: b }, eventId);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toContain('"reason":"mcp-resolve/stream-lost"');
  });

  it('on a made-up session, or on a session of another principal, is answered exactly as a made-up session', async () => {
    const { a, b } = await fleetOfTwo();
    const alice: Target = { url: a, headers: as('alice') };
    alice.sessionId = await openLegacySession(alice);
    const eventId = await firstEventId(await post(alice, GREET, VERSION));
    const madeUp: Target = { url: b, sessionId: MADE_UP_SESSION, headers: as('bob') };
    const unknown = await seen(await send(madeUp, { method: 'GET' }));
    expect(unknown.status).toBe(404);
    // A crafted id naming any instance, on a made-up session: no answer per request, no liveness.
    for (const crafted of [eventId, 'mcpr-stream:a:%5B1%2C2%5D', 'mcpr-stream:ghost:%5B1%5D:AAAA']) {
      expect(await resume(madeUp, crafted)).toEqual(unknown);
    }
    // Alice's own event id, from bob, on her session, on either instance.
    for (const url of [a, b]) {
      expect(await resume({ url, sessionId: alice.sessionId, headers: as('bob') }, eventId)).toEqual(unknown);
    }
  });

  it('that was forged or altered is refused on the owner’s own session, exactly as a made-up session', async () => {
    const { a, b } = await fleetOfTwo();
    const alice: Target = { url: a, headers: as('alice') };
    alice.sessionId = await openLegacySession(alice);
    const eventId = await firstEventId(await post(alice, GREET, VERSION));
    const unknown = await seen(await send({ ...alice, url: b, sessionId: MADE_UP_SESSION }, { method: 'GET' }));
    const signatureAt = eventId.lastIndexOf(':');
    const forged = [
      eventId.replace('mcpr-stream:a:', 'mcpr-stream:ghost:'),
      eventId.replace('%5B5%5D', '%5B6%5D'),
      `${eventId.slice(0, signatureAt + 1)}${eventId.at(signatureAt + 1) === 'A' ? 'B' : 'A'}${eventId.slice(signatureAt + 2)}`,
      eventId.slice(0, signatureAt),
      'mcpr-stream:a:%5B5%5D',
    ];
    for (const id of forged) expect(await resume({ ...alice, url: b }, id)).toEqual(unknown);
  });
});
