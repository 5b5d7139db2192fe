/**
 * The fleet relay under attack: answers posted with no live session, addressed to an instance that
 * does not hold the session, or to an instance that died. Bytes into Redis are read from its
 * `total_net_input_bytes` (everything the members sent it, pub/sub included).
 */
import { once } from 'node:events';

import type { Case } from './harness.js';
import { mb, messageOf, outcome, raw, rawSession, since, spread } from './harness.js';
import { SseReader } from '../lib/wire.js';

/** A JSON-RPC answer to push `id`, padded to about `bytes`. */
const answer = (id: string, bytes: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: { action: 'accept', content: { confirm: true }, _meta: { pad: 'x'.repeat(bytes) } },
  });

const LEGACY = { 'mcp-protocol-version': '2025-11-25' };

export const relayCases: readonly Case[] = [
  {
    name: 'relay: answers with no live session, misaddressed, or to a dead member',
    timeoutMs: 60_000,
    options: [
      '(relay) session and holder checked before relaying',
      'maxRelayedAnswerBytes (1048576)',
      '(relay) dead holder answered at once, one publish at most',
    ],
    async run(scope) {
      const redis = await scope.redis();
      const [a, b] = await Promise.all(
        ['a', 'b'].map((id) => scope.server({ redis: { url: redis.url, instanceId: id } })),
      );
      // A session id that names no session, addressed to b: 10 × 1 MB posted to a.
      let before = await redis.info('total_net_input_bytes');
      const sessionless = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          raw(a!.url, {
            body: answer(`mcpr:b:${index + 1}`, 1_000_000),
            headers: { ...LEGACY, 'mcp-session-id': `no-such-session-${index}` },
            timeoutMs: 15_000,
          }),
        ),
      );
      const sessionlessBytes = (await redis.info('total_net_input_bytes')) - before;
      // A live session (opened on a), answers addressed to an instance that does not exist: 10 × 1 MB at once.
      const { sessionId } = await rawSession(a!.url, { elicitation: { form: {} } }, spread(0));
      before = await redis.info('total_net_input_bytes');
      const started = performance.now();
      const misaddressed = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          raw(b!.url, {
            body: answer(`mcpr:ghost:${index + 1}`, 1_000_000),
            headers: { ...LEGACY, 'mcp-session-id': sessionId ?? 'none' },
            timeoutMs: 15_000,
          }),
        ),
      );
      const misaddressedMs = since(started);
      const misaddressedBytes = (await redis.info('total_net_input_bytes')) - before;
      const statuses = (list: typeof sessionless) => [...new Set(list.map((response) => response.status))].join('/');
      // Last: an answer to a member that died while a push waited.
      const held = await rawSession(b!.url, { elicitation: { form: {} } }, spread(1));
      const heldId = held.sessionId;
      if (heldId === undefined) throw new Error('no session on b');
      const aborter = new AbortController();
      scope.defer(async () => aborter.abort());
      const call = await fetch(b!.url, {
        method: 'POST',
        signal: aborter.signal,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'mcp-session-id': heldId,
          ...LEGACY,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'refund', arguments: { order_id: 'ORD-9' } },
        }),
      });
      const push = await new SseReader(call).next(10_000);
      const pushId = String(push.id);
      const exited = once(b!.child, 'exit');
      b!.child.kill('SIGKILL');
      await exited;
      const deadBefore = await redis.info('total_net_input_bytes');
      const deadStarted = performance.now();
      const response = await raw(a!.url, {
        body: answer(pushId, 1_000_000),
        headers: { ...LEGACY, 'mcp-session-id': heldId },
        timeoutMs: 30_000,
      });
      const ms = since(deadStarted);
      const bytes = (await redis.info('total_net_input_bytes')) - deadBefore;
      const message = messageOf(response).error?.message ?? '';
      return [
        outcome(
          '10 × 1 MB answers with no live session, addressed to another member',
          sessionlessBytes <= 1_000_000 && sessionless.every((response) => response.status >= 400),
          `${mb(sessionlessBytes)} into Redis, answered ${statuses(sessionless)} (limit: ≤ 1 MB, refused)`,
        ),
        outcome(
          '10 × 1 MB answers on a live session addressed to an instance that does not exist',
          // Dropped unrelayed, as one instance drops a response to a request it never sent (202, reported to onerror).
          misaddressedBytes <= 1_000_000 &&
            misaddressed.every((response) => response.status === 202 || response.status >= 400),
          `${mb(misaddressedBytes)} into Redis in ${misaddressedMs} ms, answered ${statuses(misaddressed)} (limit: ≤ 1 MB, dropped or refused)`,
        ),
        outcome(
          `1 MB answer to push ${pushId} of a killed member`,
          response.status === 503 && ms <= 1_000 && message.includes('cannot reach this server') && bytes <= 1_200_000,
          `${response.status} after ${ms} ms ("${message.slice(0, 90)}"), ${mb(bytes)} into Redis (limit: 503 naming "cannot reach this server" within 1 s, ≤ 1.2 MB)`,
        ),
      ];
    },
  },
];
