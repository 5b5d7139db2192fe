/**
 * Legacy sessions across instances, with the in-memory hub: two handlers behind a round-robin
 * "balancer" (a fetch that alternates between them, no affinity). Redis-backed versions of these
 * checks live in test/redis.
 */
import { afterEach, describe, expect, it } from 'vitest';

import type { DualEraHandler, DualEraHttpOptions } from '../../src/hosting/index.js';
import { createDualEraHandler } from '../../src/hosting/index.js';
import { createMemorySessionHub, INSTANCE_HEADER } from '../../src/fleet/index.js';
import type { FleetMessage } from '../../src/fleet/index.js';
import { relayPatiently } from '../../src/hosting/fleetRelay.js';
import { connectHttp } from '../../src/testing/index.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';
import { SseReader, openLegacySession, post, send } from '../../scripts/lib/wire.js';

const URL_ = new URL('http://localhost/mcp');
const handlers: DualEraHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

/** Hands a request to `handler` as a server behind a proxy sees it: with a Host header. */
function hosted(handler: DualEraHandler) {
  return (request: Request): Promise<Response> => {
    const headers = new Headers(request.headers);
    headers.set('host', 'localhost');
    return handler.fetch(new Request(request, { headers }));
  };
}

/** Instances of one fleet and a round-robin fetch over them that records which instance served what. */
function fleetOf(count: number, options: (index: number) => DualEraHttpOptions) {
  const instances = Array.from({ length: count }, (_, index) => createDualEraHandler(askNameServer, options(index)));
  handlers.push(...instances);
  const served: string[] = [];
  let next = 0;
  const balancer = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const instance = instances[next++ % instances.length]!;
    const response = await hosted(instance)(new Request(input, init));
    served.push(response.headers.get(INSTANCE_HEADER) ?? 'none');
    return response;
  };
  return { instances, served, balancer };
}

function sharedFleet(count: number) {
  const hub = createMemorySessionHub();
  return fleetOf(count, (index) => ({ sessionFleet: hub.member(`i${index}`) }));
}

describe('legacy sessions across instances (in-memory hub)', () => {
  it('serves a call whose push is answered through another instance (the answer is relayed)', async () => {
    const { balancer, served } = sharedFleet(3);
    const connection = await connectHttp(URL_, {
      era: 'legacy',
      elicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
      transportOptions: { fetch: balancer },
    });
    for (let call = 0; call < 3; call++) {
      const result = await connection.client.callTool({ name: 'greet', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'hello Ada (legacy)' }]);
    }
    expect(new Set(served)).toEqual(new Set(['i0', 'i1', 'i2']));
    await connection.close();
  });

  it('without a shared fleet, the same balancer breaks the session (control)', async () => {
    const { balancer } = fleetOf(2, () => ({}));
    // The `initialized` notification lands on the instance that never saw the session.
    await expect(openLegacySession({ url: URL_, fetch: balancer })).rejects.toThrow('initialized answered 404');
  });

  it('reaches the GET stream held by another instance with a push unrelated to the call', async () => {
    const { instances } = sharedFleet(2);
    const [a, b] = [instances[0]!, instances[1]!];
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(a) });
    const onB = { url: URL_, sessionId, fetch: hosted(b) };
    const onA = { url: URL_, sessionId, fetch: hosted(a) };
    const stream = new SseReader(await send(onB, { method: 'GET' }));
    const call = new SseReader(
      await post(onA, {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'greet_unrelated', arguments: {} },
      }),
    );
    const push = await stream.next();
    expect(push).toMatchObject({ method: 'elicitation/create', id: expect.stringMatching(/^mcpr:i0:/) });
    const answered = await post(onB, {
      jsonrpc: '2.0',
      id: push.id,
      result: { action: 'accept', content: { name: 'Bo' } },
    });
    expect(answered.status).toBe(202);
    expect(await call.next()).toMatchObject({
      id: 5,
      result: { content: [{ type: 'text', text: 'hello Bo (unrelated push)' }] },
    });
    await stream.cancel();
  });

  it('ends a session everywhere on DELETE, and 404s a forged id on every instance', async () => {
    const { instances } = sharedFleet(2);
    const [a, b] = [instances[0]!, instances[1]!];
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(a) });
    const onB = { url: URL_, sessionId, fetch: hosted(b) };
    const onA = { url: URL_, sessionId, fetch: hosted(a) };
    expect((await post(onB, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(200);
    expect((await send(onB, { method: 'DELETE' })).status).toBe(200);
    await expect.poll(async () => (await post(onA, { jsonrpc: '2.0', id: 2, method: 'ping' })).status).toBe(404);
    expect((await post(onB, { jsonrpc: '2.0', id: 3, method: 'ping' })).status).toBe(404);
    const forged = { url: URL_, sessionId: 'forged', fetch: hosted(b) };
    expect((await post(forged, { jsonrpc: '2.0', id: 4, method: 'ping' })).status).toBe(404);
  });

  it('drops (and reports) an answer naming a push no instance waits for', async () => {
    const errors: string[] = [];
    const hub = createMemorySessionHub();
    const a = createDualEraHandler(askNameServer, {
      sessionFleet: hub.member('a'),
      onerror: (e) => errors.push(e.message),
    });
    const b = createDualEraHandler(askNameServer, {
      sessionFleet: hub.member('b'),
      onerror: (e) => errors.push(e.message),
    });
    handlers.push(a, b);
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(a) });
    const onB = { url: URL_, sessionId, fetch: hosted(b) };
    const answered = await post(onB, { jsonrpc: '2.0', id: 'mcpr:a:99', result: { action: 'cancel' } });
    expect(answered.status).toBe(202);
    await expect
      .poll(() => errors.filter((line) => line.startsWith('Dropped a relayed answer')))
      .toEqual([`Dropped a relayed answer: no push "mcpr:a:99" of session ${sessionId} waits on this instance`]);
  });

  it('retries a relay while the instance it is for (re)subscribes, so the message arrives', async () => {
    const hub = createMemorySessionHub();
    const received: FleetMessage[] = [];
    const relaying = relayPatiently(hub.member('b'), 'a', { kind: 'ended', sessionId: 's1' });
    await new Promise((wake) => setTimeout(wake, 300));
    const stop = await hub.member('a').subscribe((message) => received.push(message));
    await relaying;
    await expect.poll(() => received).toEqual([{ kind: 'ended', sessionId: 's1' }]);
    await stop();
  });

  it('answers 503 naming the instance when an answer cannot be relayed for 5 s', async () => {
    const { instances } = sharedFleet(2);
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(instances[0]!) });
    const onB = { url: URL_, sessionId, fetch: hosted(instances[1]!) };
    const answered = await post(onB, { jsonrpc: '2.0', id: 'mcpr:gone:1', result: { action: 'cancel' } });
    expect(answered.status).toBe(503);
    expect(await answered.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message:
          'Service Unavailable: The legacy session store failed to relay an answer: no instance "gone" is listening; retry later',
      },
    });
  }, 15_000);
});
