import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createDualEraHandler } from '../../../../src/hosting/index.js';
import type { HttpServerHandle } from '../../../../src/node/index.js';
import { serveHttp } from '../../../../src/node/index.js';
import { askNameServer } from '../../../testing/fixtures/askNameServer.js';
import { SseReader, openLegacySession, post, send } from '../../../../scripts/lib/wire.js';

const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };

let served: HttpServerHandle;
beforeAll(async () => {
  served = await serveHttp(askNameServer);
});
afterAll(async () => {
  await served.close();
});

async function jsonError(response: Response): Promise<unknown> {
  expect(response.headers.get('content-type')).toContain('application/json');
  return ((await response.json()) as { error?: unknown }).error;
}

describe('legacy sessions over HTTP', () => {
  it('opens a standalone GET stream whose headers arrive at once, one per session', async () => {
    const sessionId = await openLegacySession({ url: served.url });
    const session = { url: served.url, sessionId };
    // fetch resolves on the response's headers; the stream sends no event, so headers held back
    // until a first event would leave this await hanging (and the test failing) instead.
    const listening = await send(session, { method: 'GET' });
    expect(listening.status).toBe(200);
    expect(listening.headers.get('content-type')).toContain('text/event-stream');
    expect(listening.headers.get('mcp-session-id')).toBe(sessionId);
    const second = await send(session, { method: 'GET' });
    expect(second.status).toBe(409);
    await second.body?.cancel();
    await listening.body?.cancel();
    await send(session, { method: 'DELETE' });
  });

  it('ends a session on DELETE: its streams close and its id is then unknown', async () => {
    const sessionId = await openLegacySession({ url: served.url });
    const session = { url: served.url, sessionId };
    const standalone = new SseReader(await send(session, { method: 'GET' }));
    const deleted = await send(session, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await standalone.ends()).toBe(true);
    const after = await post(session, PING);
    expect(after.status).toBe(404);
    expect(await jsonError(after)).toEqual({ code: -32001, message: 'Session not found' });
  });

  it('answers an unknown session id with 404 / -32001 on every method', async () => {
    const unknown = { url: served.url, sessionId: 'no-such-session' };
    for (const method of ['POST', 'GET', 'DELETE']) {
      const response = await send(unknown, { method, ...(method === 'POST' && { body: PING }) });
      expect(response.status).toBe(404);
      expect(await jsonError(response)).toEqual({ code: -32001, message: 'Session not found' });
    }
  });

  it('answers a legacy request without a session id with 400', async () => {
    const url = { url: served.url };
    for (const response of [
      await post(url, PING),
      await send(url, { method: 'GET' }),
      await send(url, { method: 'DELETE' }),
    ]) {
      expect(response.status).toBe(400);
      expect(await jsonError(response)).toEqual({
        code: -32000,
        message: 'Bad Request: Mcp-Session-Id header is required',
      });
    }
  });

  it('serves requests of a live session', async () => {
    const sessionId = await openLegacySession({ url: served.url });
    const reply = new SseReader(await post({ url: served.url, sessionId }, PING));
    expect(await reply.next()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await send({ url: served.url, sessionId }, { method: 'DELETE' });
  });
});

describe('legacy session idle timeout', () => {
  const target = (sessionId?: string) => ({
    url: new URL('http://localhost/mcp'),
    headers: { host: 'localhost' },
    fetch: (request: Request) => handler.fetch(request),
    ...(sessionId !== undefined && { sessionId }),
  });
  // A second of idleness: the ping right after opening is served on a slow machine too.
  const handler = createDualEraHandler(askNameServer, { legacySessionIdleMs: 1_000 });
  afterAll(() => handler.close());

  it('closes a session left idle', async () => {
    const sessionId = await openLegacySession(target());
    const reply = await post(target(sessionId), PING);
    expect(reply.status).toBe(200);
    await reply.text(); // a response body still streaming keeps its session busy
    await new Promise((resolve) => setTimeout(resolve, 1_300)); // a slow machine only waits longer
    expect((await post(target(sessionId), PING)).status).toBe(404);
  });

  it('closes an idle session even while its GET stream is open, ending the stream', async () => {
    const sessionId = await openLegacySession(target());
    const listening = new SseReader(await send(target(sessionId), { method: 'GET' }));
    // Regression: an open GET stream counted as busy, so a silent listener kept its session forever.
    expect(await listening.ends()).toBe(true);
    expect((await post(target(sessionId), PING)).status).toBe(404);
  });
});
