/**
 * Issue 47, rows 3 and 4: a 2025-11-25 session and its resumption under attack by another
 * authenticated principal (bob against alice's session), on one instance and on a Redis fleet of
 * two members: answers, calls, GET and DELETE on her session, guessing push ids, crafted and
 * altered `Last-Event-ID`s, and what a client reads while Redis is down.
 */
import type { AttackServer, Case, RawResponse } from './harness.js';
import { messageOf, outcome, raw, rawSession } from './harness.js';
import { SseReader } from '../lib/wire.js';

const LEGACY = { 'mcp-protocol-version': '2025-11-25' };
const MADE_UP = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
const MASKED = /^Internal error \(ref [0-9a-f]{12}\): the server could not complete this request\./;
const as = (name: string) => ({ authorization: `Bearer token-${name}`, ...LEGACY });
const refund = (order: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'refund', arguments: { order_id: order } },
  });
const confirm = (id: unknown, yes: boolean) =>
  JSON.stringify({ jsonrpc: '2.0', id, result: { action: 'accept', content: { confirm: yes } } });

/** Opens a session on `url` as `name`. */
async function sessionOf(url: URL, name: string): Promise<string> {
  const { sessionId, response } = await rawSession(url, { elicitation: { form: {} } }, undefined, as(name));
  if (sessionId === undefined) throw new Error(`no session for ${name}: ${response.status}`);
  return sessionId;
}

/** Starts `name`'s refund of `order` on `sessionId`: the call's stream, its push, and the event id it opened with. */
async function refundCall(url: URL, sessionId: string, name: string, order: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-session-id': sessionId,
      ...as(name),
    },
    body: refund(order),
  });
  const [stream, peek] = (response.body as ReadableStream<Uint8Array>).tee();
  const reader = peek.getReader();
  const first = await reader.read();
  void reader.cancel();
  const eventId = /^id: (.+)$/m.exec(new TextDecoder().decode(first.value))?.[1];
  const events = new SseReader(new Response(stream));
  return { events, push: await events.next(10_000), eventId };
}

/** Whether `response` is exactly what a made-up session id gets for the same request. */
async function likeUnknown(url: URL, response: RawResponse, init: Parameters<typeof raw>[1]): Promise<boolean> {
  const unknown = await raw(url, { ...init, headers: { ...init?.headers, 'mcp-session-id': MADE_UP } });
  return response.status === 404 && response.status === unknown.status && response.body === unknown.body;
}

/** Bob against alice's session on `alice` (where she opened it and calls) and `bobOn` (where bob posts). */
async function bobAgainstAlice(alice: URL, bobOn: URL, label: string) {
  const sessionId = await sessionOf(alice, 'alice');
  const call = await refundCall(alice, sessionId, 'alice', 'ALICE-1');
  const bob = { ...as('bob'), 'mcp-session-id': sessionId };
  const answerInit = { headers: bob, body: confirm(call.push.id, false) };
  const answered = await likeUnknown(bobOn, await raw(bobOn, answerInit), answerInit);
  const inits: Array<Parameters<typeof raw>[1]> = [
    { headers: bob, body: refund('BOB-1') },
    { method: 'GET', headers: bob, timeoutMs: 3_000 },
    { method: 'DELETE', headers: bob },
  ];
  let refused = 0;
  for (const init of inits) if (await likeUnknown(bobOn, await raw(bobOn, init), init)) refused += 1;
  await raw(alice, { headers: { ...as('alice'), 'mcp-session-id': sessionId }, body: confirm(call.push.id, true) });
  const result = JSON.stringify(await call.events.next(10_000));
  const hers = result.includes('Refunded ALICE-1.');
  return outcome(
    `${label}: bob's answer, tools/call, GET and DELETE on alice's session`,
    answered && refused === 3 && hers,
    `bob's answer ${answered ? 'refused as unknown' : 'ACCEPTED'}, ${refused} of 3 requests refused as unknown, alice's call ended "${hers ? 'Refunded ALICE-1.' : result.slice(0, 60)}" (limit: all refused exactly as a made-up session id, her own answer completes her call)`,
  );
}

/** Push ids of `count` successive pushes on one session of `server`. */
async function pushIds(server: AttackServer, count: number): Promise<string[]> {
  const sessionId = await sessionOf(server.url, 'alice');
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const call = await refundCall(server.url, sessionId, 'alice', `ORD-${index}`);
    ids.push(String(call.push.id));
    await raw(server.url, {
      headers: { ...as('alice'), 'mcp-session-id': sessionId },
      body: confirm(call.push.id, true),
    });
    await call.events.next(10_000);
  }
  return ids;
}

export const sessionBindingCases: readonly Case[] = [
  {
    name: 'session binding: another principal on a 2025-11-25 session (one instance, a Redis fleet)',
    timeoutMs: 90_000,
    options: ['(sessions) bound to the principal that opened them', '(sessions) random push ids'],
    async run(scope) {
      const solo = await scope.server({ auth: true });
      const redis = await scope.redis();
      const [a, b] = await Promise.all(
        ['a', 'b'].map((id) => scope.server({ auth: true, redis: { url: redis.url, instanceId: id } })),
      );
      const ids = await pushIds(solo, 5);
      const random = ids.filter((id) => /^mcpr:[^:]+:[0-9a-f]{32}$/.test(id));
      return [
        await bobAgainstAlice(solo.url, solo.url, 'one instance'),
        await bobAgainstAlice(a!.url, b!.url, 'fleet, bob on the other member (relayed)'),
        outcome(
          'push ids of 5 successive pushes',
          random.length === 5 && new Set(ids).size === 5,
          `${random.length} of 5 carry 128 random bits, ${new Set(ids).size} distinct (e.g. ${ids[0]}) (limit: 5 random, none of 0, 1, 2…)`,
        ),
      ];
    },
  },
  {
    name: 'session binding: Last-Event-ID and a Redis that is down (fleet)',
    timeoutMs: 90_000,
    options: ['(resumption) only on the caller’s own session, signed event ids', '(sessions) backend failures masked'],
    async run(scope) {
      const redis = await scope.redis();
      const [a, b] = await Promise.all(
        ['a', 'b'].map((id) => scope.server({ auth: true, redis: { url: redis.url, instanceId: id } })),
      );
      const sessionId = await sessionOf(a!.url, 'alice');
      const call = await refundCall(a!.url, sessionId, 'alice', 'ALICE-2');
      const eventId = call.eventId ?? '';
      const resume = (session: string, name: string, id: string): Parameters<typeof raw>[1] => ({
        method: 'GET',
        headers: { ...as(name), 'mcp-session-id': session, 'last-event-id': id },
        timeoutMs: 3_000,
      });
      // Crafted ids on made-up sessions, alice's genuine id from bob, and altered ids from alice herself.
      const crafted = ['a', 'b', 'ghost', 'gone-1', 'gone-2'].map(
        (instance) => `mcpr-stream:${instance}:%5B1%2C2%2C3%5D`,
      );
      const signatureAt = eventId.lastIndexOf(':');
      const altered = [
        eventId.replace('mcpr-stream:a:', 'mcpr-stream:b:'),
        eventId.replace('%5B7%5D', '%5B8%5D'),
        `${eventId.slice(0, signatureAt + 1)}${'A'.repeat(43)}`,
      ];
      const tries: Array<Parameters<typeof raw>[1]> = [
        ...crafted.map((id) => resume(MADE_UP.replace('f47', 'e47'), 'bob', id)),
        resume(sessionId, 'bob', eventId),
        ...altered.map((id) => resume(sessionId, 'alice', id)),
      ];
      let refused = 0;
      let answered = 0;
      for (const init of tries) {
        const response = await raw(b!.url, init);
        if (response.status === 200) answered += 1;
        if (await likeUnknown(b!.url, response, init)) refused += 1;
      }
      const genuine = await raw(b!.url, resume(sessionId, 'alice', eventId));
      await redis.stop(true);
      const down = [
        await raw(b!.url, { headers: { ...as('alice'), 'mcp-session-id': sessionId }, body: refund('ALICE-3') }),
        await raw(b!.url, resume(sessionId, 'alice', eventId)),
        await raw(b!.url, { method: 'DELETE', headers: { ...as('alice'), 'mcp-session-id': sessionId } }),
      ];
      // Back up before the case ends: the harness's own Redis client quits at teardown.
      await redis.restart();
      const masked = down.filter((response) => MASKED.test(messageOf(response).error?.message ?? '')).length;
      const leaked = down.filter((response) => /offline|ECONNREFUSED|redis/i.test(response.body)).length;
      return [
        outcome(
          `${tries.length} resumptions: crafted ids on made-up sessions, alice's id from bob, altered ids from alice`,
          refused === tries.length && answered === 0,
          `${refused} of ${tries.length} refused exactly as an unknown session, ${answered} answered 200 (limit: all refused as unknown, none answered); alice's own id: ${genuine.status}`,
        ),
        outcome(
          'requests on a session while Redis is down (POST, resumption, DELETE)',
          masked === 3 && leaked === 0,
          `${masked} of 3 answered with the masked text and a ref, ${leaked} carried the Redis client's words (limit: 3 masked, 0)`,
        ),
      ];
    },
  },
];
