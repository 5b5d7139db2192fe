/**
 * The watch an instance keeps while its pushes wait for answers (`RelayWatch`): a check the store
 * fails does not fail a waiting push at once (a slow store or a starved process is waited out);
 * checks that keep failing, or a subscription that is down, end the call with a clear error.
 * Over the in-memory hub, with the waiting instance's `listening` check failing as each test says.
 */
import { afterEach, describe, expect, it } from 'vitest';

import type { DualEraHandler } from '../../../../src/hosting/index.js';
import { createDualEraHandler } from '../../../../src/hosting/index.js';
import { createMemorySessionHub } from '../../../../src/contracts/index.js';
import type { LegacySessionFleet } from '../../../../src/contracts/index.js';
import { z } from 'zod';

import { elicit, McpResolveServer, resolver } from '../../../../src/index.js';
import { hosted, openLegacySession, post, SseReader } from '../../../../scripts/lib/wire.js';

const URL_ = new URL('http://localhost/mcp');
/** A tool that asks a name (on 2025-11-25, a push that waits as long as the person takes). */
const desk = new McpResolveServer({ name: 'desk', version: '1.0.0' }).tool(
  'greet',
  { resolve: { who: resolver({ name: 'who' }, () => elicit('Name?', z.object({ name: z.string() }))) } },
  ({ who }) => `hello ${who.name}`,
);
/** How long a read may wait: generous, so a starved machine only makes the tests slower. */
const READ_MS = 30_000;
const handlers: DualEraHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

/**
 * A legacy session on an instance whose `listening` check answers with `check(n)` on its n-th call
 * (1-based): the call `greet` started, its push read, and the count of checks so far.
 */
async function waitingCall(check: (n: number) => Promise<boolean>) {
  const member = createMemorySessionHub().member('a');
  let checks = 0;
  const fleet: LegacySessionFleet = {
    ...member,
    listening: (target) => (target === undefined ? check(++checks) : member.listening(target)),
  };
  const errors: string[] = [];
  const handler = createDualEraHandler(desk, { sessionFleet: fleet, onerror: (e) => errors.push(e.message) });
  handlers.push(handler);
  const target = { url: URL_, fetch: hosted(handler) };
  const sessionId = await openLegacySession(target);
  const request = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'greet', arguments: {} } };
  const call = new SseReader(await post({ ...target, sessionId }, request));
  const push = (await call.next(READ_MS)) as { id: string | number };
  const answer = () =>
    post(
      { ...target, sessionId },
      { jsonrpc: '2.0', id: push.id, result: { action: 'accept', content: { name: 'Ada' } } },
    );
  return { call, answer, errors, checks: () => checks };
}

const offline = (): Promise<boolean> => Promise.reject(new Error('The client is offline'));

describe('an instance whose pushes wait for answers', () => {
  it('keeps a push waiting through checks the store fails, and completes the call once the answer comes', async () => {
    const { call, answer, checks } = await waitingCall((n) => (n <= 2 ? offline() : Promise.resolve(true)));
    await expect.poll(checks, { timeout: READ_MS }).toBeGreaterThanOrEqual(3);
    expect((await answer()).status).toBe(202);
    expect(JSON.stringify(await call.next(READ_MS))).toContain('hello Ada');
  });

  it('ends the call with the masked text once every check has failed for the relay patience (5 s)', async () => {
    const { call, errors } = await waitingCall(offline);
    const reply = JSON.stringify(await call.next(READ_MS));
    const ref = /Internal error \(ref ([0-9a-f]{12})\)/.exec(reply)?.[1];
    expect(ref).toBeDefined();
    expect(reply).not.toContain('offline');
    expect(errors).toContain(
      `The legacy session backend failed to check that relays reach this instance: The client is offline [ref ${ref}]`,
    );
  }, 40_000);

  it('ends the call at once when its subscription is down', async () => {
    const { call, checks } = await waitingCall(() => Promise.resolve(false));
    expect(JSON.stringify(await call.next(READ_MS))).toContain(
      'The fleet relay to instance a was interrupted while this request waited for its answer (its subscription was down)',
    );
    expect(checks()).toBe(1);
  });
});
