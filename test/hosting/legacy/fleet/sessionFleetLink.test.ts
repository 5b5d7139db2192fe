/**
 * Legacy sessions across instances, with the in-memory hub: two handlers behind a round-robin
 * "balancer" (a fetch that alternates between them, no affinity). Redis-backed versions of these
 * checks live in test/redis.
 */
import { afterEach, describe, expect, it } from 'vitest';

import type { DualEraHandler, DualEraHttpOptions } from '../../../../src/hosting/index.js';
import { createDualEraHandler } from '../../../../src/hosting/index.js';
import { createMemorySessionHub, INSTANCE_HEADER } from '../../../../src/contracts/index.js';
import type { FleetMessage, LegacySessionFleet } from '../../../../src/contracts/index.js';
import { connectHttp } from '../../../../src/testing/index.js';
import { askNameServer } from '../../../testing/fixtures/askNameServer.js';
import { hosted, openLegacySession, post, send, SseReader } from '../../../../scripts/lib/wire.js';
import { partitionable } from '../../../fixtures/partitionable.js';

const URL_ = new URL('http://localhost/mcp');
const handlers: DualEraHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

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

  it('drops (and reports) an answer naming a push no instance waits for, publishing nothing', async () => {
    const errors: string[] = [];
    const hub = createMemorySessionHub();
    const busB = countingBus(hub.member('b'));
    const a = createDualEraHandler(askNameServer, {
      sessionFleet: hub.member('a'),
      onerror: (e) => errors.push(e.message),
    });
    const b = createDualEraHandler(askNameServer, { sessionFleet: busB, onerror: (e) => errors.push(e.message) });
    handlers.push(a, b);
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(a) });
    const onB = { url: URL_, sessionId, fetch: hosted(b) };
    const answered = await post(onB, { jsonrpc: '2.0', id: 'mcpr:a:99', result: { action: 'cancel' } });
    expect(answered.status).toBe(202);
    expect(errors).toContain(`Dropped an answer: no push "mcpr:a:99" of session ${sessionId} waits in the fleet`);
    expect(busB.sent).toEqual([]);
  });
});

/** A fleet member that records what it sends to other instances (kind, target, bytes). */
function countingBus(member: LegacySessionFleet): LegacySessionFleet & { readonly sent: string[] } {
  const sent: string[] = [];
  return Object.assign(Object.create(member) as LegacySessionFleet, {
    sent,
    send(target: string, message: FleetMessage) {
      sent.push(`${message.kind} to ${target}: ${JSON.stringify(message).length} bytes`);
      return member.send(target, message);
    },
  });
}

/** Two instances of one in-memory fleet; `b`'s messages to other instances are counted. */
function relayPair(
  options: DualEraHttpOptions = {},
  memberA: (member: LegacySessionFleet) => LegacySessionFleet = (member) => member,
) {
  const hub = createMemorySessionHub();
  const errors: string[] = [];
  const busB = countingBus(hub.member('b'));
  const onerror = (error: Error) => errors.push(error.message);
  const a = createDualEraHandler(askNameServer, { ...options, sessionFleet: memberA(hub.member('a')), onerror });
  const b = createDualEraHandler(askNameServer, { ...options, sessionFleet: busB, onerror });
  handlers.push(a, b);
  return { a, b, busB, errors };
}

/** The error result of call 7 (the tool's own handling of a failed push), its text containing `text`. */
function toolFailure(text: string) {
  return { id: 7, result: { isError: true, content: [{ type: 'text', text: expect.stringContaining(text) }] } };
}

/** Starts `greet` on `a` over the raw wire and returns its response stream and the push it made. */
async function pushFromA(a: DualEraHandler, sessionId: string) {
  const call = new SseReader(
    await post(
      { url: URL_, sessionId, fetch: hosted(a) },
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'greet', arguments: {} },
      },
    ),
  );
  const push = await call.next();
  expect(push).toMatchObject({ method: 'elicitation/create', id: expect.stringMatching(/^mcpr:a:/) });
  return { call, pushId: String(push.id) };
}

describe('the relay carries only what it may (in-memory hub)', () => {
  it('relays nothing for a session that does not exist, whatever instance the answer names', async () => {
    const { b, busB } = relayPair();
    const forged = { url: URL_, sessionId: 'forged', fetch: hosted(b) };
    for (const id of ['mcpr:a:1', 'mcpr:ghost:1']) {
      const answered = await post(forged, { jsonrpc: '2.0', id, result: { action: 'accept', content: { name: 'x' } } });
      expect(answered.status).toBe(404);
    }
    expect(busB.sent).toEqual([]);
  });

  it('relays an answer only for the session whose push it is, and only once', async () => {
    const { a, b, busB, errors } = relayPair();
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(a) });
    const other = await openLegacySession({ url: URL_, fetch: hosted(a) });
    const { call, pushId } = await pushFromA(a, sessionId);
    const answer = { jsonrpc: '2.0', id: pushId, result: { action: 'accept', content: { name: 'Bo' } } };
    // Posted under another session's id: dropped, nothing published.
    expect((await post({ url: URL_, sessionId: other, fetch: hosted(b) }, answer)).status).toBe(202);
    expect(busB.sent).toEqual([]);
    expect(errors).toContain(
      `Dropped an answer: no push ${JSON.stringify(pushId)} of session ${other} waits in the fleet`,
    );
    // Under its own session: relayed once; the copy is dropped.
    const onB = { url: URL_, sessionId, fetch: hosted(b) };
    expect((await post(onB, answer)).status).toBe(202);
    expect(await call.next()).toMatchObject({
      id: 7,
      result: { content: [{ type: 'text', text: 'hello Bo (legacy)' }] },
    });
    expect((await post(onB, answer)).status).toBe(202);
    expect(busB.sent).toEqual([expect.stringMatching(/^answer to a: \d+ bytes$/)]);
  });

  it('refuses at once, publishing nothing, an answer whose instance is not listening', async () => {
    let partition: ReturnType<typeof partitionable> | undefined;
    const { a, b, busB } = relayPair({}, (member) => (partition = partitionable(member)).fleet);
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(a) });
    const { pushId } = await pushFromA(a, sessionId);
    // Instance a is cut off (crashed, as the others see it); the session and its push record live on in the store.
    await partition!.cut();
    const answered = await post(
      { url: URL_, sessionId, fetch: hosted(b) },
      { jsonrpc: '2.0', id: pushId, result: { action: 'accept', content: { name: 'Bo' } } },
    );
    expect(answered.status).toBe(503);
    expect(await answered.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message:
          'The answer to the elicitation/create request cannot reach this server. Instance a, which asked, cannot receive it: it is not listening (it stopped, or lost its connection to the fleet). Call the tool again.',
      },
    });
    expect(busB.sent).toEqual([]);
  });

  it('ends a call whose answer a relaying instance took and never delivered (it stopped mid-relay)', async () => {
    const { a, busB, errors } = relayPair();
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(a) });
    const { call, pushId } = await pushFromA(a, sessionId);
    // Instance b takes the push's record to relay its answer, then dies before publishing it.
    expect(await busB.takeAnswer(sessionId, pushId)).toEqual({ method: 'elicitation/create' });
    // Instance a's watch finds the record gone on two checks a second apart, the answer still missing.
    expect(await call.next()).toMatchObject(
      toolFailure(
        'Another instance of the fleet took the answer to this request to relay it here, and it never arrived: that instance stopped (or lost the fleet) while relaying it. Call the tool again.',
      ),
    );
    expect(errors).toContain(
      'Failed 1 waiting push(es): Another instance of the fleet took the answer to this request to relay it here, and it never arrived: that instance stopped (or lost the fleet) while relaying it. Call the tool again.',
    );
  });

  it('refuses an answer larger than maxRelayedAnswerBytes with 413, and ends the call that waits for it', async () => {
    const { a, b, busB } = relayPair({ maxRelayedAnswerBytes: 2_000 });
    const sessionId = await openLegacySession({ url: URL_, fetch: hosted(a) });
    const { call, pushId } = await pushFromA(a, sessionId);
    const answer = { jsonrpc: '2.0', id: pushId, result: { action: 'accept', content: { name: 'x'.repeat(5_000) } } };
    const size = JSON.stringify(answer).length;
    const answered = await post({ url: URL_, sessionId, fetch: hosted(b) }, answer);
    expect(answered.status).toBe(413);
    expect(await answered.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: `Payload Too Large: the answer to the elicitation/create request is ${size} bytes; this server relays answers of at most 2000 bytes (maxRelayedAnswerBytes)`,
      },
    });
    // The call ends now with the reason (the tool's own handling of a failed push), not at its timeout.
    expect(await call.next()).toMatchObject(
      toolFailure(
        `The client's answer to the elicitation/create request was ${size} bytes; an answer relayed between instances may have at most 2000 bytes (maxRelayedAnswerBytes).`,
      ),
    );
    expect(busB.sent).toEqual([expect.stringMatching(/^answer to a: \d{3} bytes$/)]);
  });

  it('rejects a maxRelayedAnswerBytes that is not a positive integer', () => {
    for (const maxRelayedAnswerBytes of [0, -1, 1.5, Number.NaN]) {
      expect(() => createDualEraHandler(askNameServer, { maxRelayedAnswerBytes })).toThrow(
        `createDualEraHandler(): maxRelayedAnswerBytes must be a positive integer number of bytes (got ${String(maxRelayedAnswerBytes)}). The default is 1048576.`,
      );
    }
  });
});

/** A legacy session on a member whose shared store fails one method with the Redis client's words; what `onerror` got. */
async function sessionOnFailingStore(failing: Partial<LegacySessionFleet>) {
  const fleet: LegacySessionFleet = { ...createMemorySessionHub().member('a'), ...failing };
  const errors: string[] = [];
  const handler = createDualEraHandler(askNameServer, { sessionFleet: fleet, onerror: (e) => errors.push(e.message) });
  handlers.push(handler);
  const target = { url: URL_, fetch: hosted(handler) };
  const sessionId = await openLegacySession(target);
  /** Calls `name` on the session; the first message of the reply's stream, as text. */
  const call = async (name: string) => {
    const request = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: {} } };
    return JSON.stringify(await new SseReader(await post({ ...target, sessionId }, request)).next());
  };
  return { call, errors };
}

/** The ref of the masked text in `reply`. */
const maskedRef = (reply: string): string | undefined =>
  /Internal error \(ref ([0-9a-f]{12})\): the server could not complete this request\./.exec(reply)?.[1];

describe('a push the shared store cannot record', () => {
  it('ends its call with the masked text and a ref; the store client’s words go to onerror only', async () => {
    const { call, errors } = await sessionOnFailingStore({
      awaitAnswer: () => Promise.reject(new Error('The client is offline')),
    });
    const reply = await call('greet');
    const ref = maskedRef(reply);
    expect(ref).toBeDefined();
    expect(reply).not.toContain('offline');
    expect(errors).toContain(
      `The legacy session backend failed to record the elicitation/create request: The client is offline [ref ${ref}]`,
    );
  });
});

describe('a message for a GET stream the shared store cannot locate', () => {
  it('fails its push with the masked text and a ref; the store client’s words go to onerror only', async () => {
    const { call, errors } = await sessionOnFailingStore({
      streamHolder: () => Promise.reject(new Error('The client is offline')),
    });
    const reply = await call('greet_unrelated');
    const ref = maskedRef(reply);
    expect(ref).toBeDefined();
    expect(reply).not.toContain('offline');
    expect(errors).toContain(
      `The legacy session backend failed to relay a message to the session's GET stream: The client is offline [ref ${ref}]`,
    );
  });
});
