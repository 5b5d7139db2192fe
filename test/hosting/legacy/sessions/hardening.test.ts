/**
 * Single-instance hardening of legacy sessions: a cap on live sessions (503 + Retry-After +
 * JSON-RPC error), and a push cancelled at once when its client has gone (response stream
 * closed, or DELETE).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createDualEraHandler } from '../../../../src/hosting/index.js';
import { pushElicit } from '../../../../src/mrtr/index.js';
import type { HttpServerHandle } from '../../../../src/node/index.js';
import { serveHttp } from '../../../../src/node/index.js';
import { McpResolveServer } from '../../../../src/server/server.js';
import { askNameServer } from '../../../testing/fixtures/askNameServer.js';
import { SseReader, openLegacySession, post, send } from '../../../../scripts/lib/wire.js';

const handles: HttpServerHandle[] = [];
afterAll(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

describe('the cap on live legacy sessions', () => {
  const target = (sessionId?: string) => ({
    url: new URL('http://localhost/mcp'),
    headers: { host: 'localhost' },
    fetch: (request: Request) => handler.fetch(request),
    ...(sessionId !== undefined && { sessionId }),
  });
  const handler = createDualEraHandler(askNameServer, { maxLegacySessions: 2, legacySessionIdleMs: 60_000 });
  afterAll(() => handler.close());

  it('refuses a session over the cap with 503, Retry-After and a JSON-RPC error, and admits one again after a DELETE', async () => {
    const first = await openLegacySession(target());
    await openLegacySession(target());
    const refused = await post(target(), {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(refused.status).toBe(503);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: `Service Unavailable: this server holds its maximum of 2 legacy sessions; retry in ${retryAfter} s`,
      },
    });
    expect((await send(target(first), { method: 'DELETE' })).status).toBe(200);
    await openLegacySession(target());
  });

  it('rejects a cap that is not a positive integer', () => {
    for (const maxLegacySessions of [0, -1, 1.5, Number.NaN]) {
      expect(() => createDualEraHandler(askNameServer, { maxLegacySessions })).toThrow(
        `createDualEraHandler(): maxLegacySessions must be a positive integer (got ${String(maxLegacySessions)}). The default is 1000.`,
      );
    }
  });
});

describe('a push whose client has gone', () => {
  /** A server whose tool pushes one question (10-minute timeout) and records how the push ended. */
  function pushingServer(outcomes: string[]) {
    return new McpResolveServer({ name: 'pusher', version: '1.0.0' }).tool('ask', { input: {} }, async (_args, ctx) => {
      try {
        const answer = await pushElicit(ctx, 'Name?', z.object({ name: z.string() }));
        outcomes.push(`answered: ${answer.action}`);
      } catch (error) {
        outcomes.push(`failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      }
      return 'done';
    }).createServer;
  }

  async function pushedCall(url: URL, outcomes: string[]) {
    const sessionId = await openLegacySession({ url });
    const aborter = new AbortController();
    const call = await fetch(url, {
      method: 'POST',
      signal: aborter.signal,
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-session-id': sessionId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ask', arguments: {} } }),
    });
    const events = new SseReader(call);
    expect(await events.next()).toMatchObject({ method: 'elicitation/create' });
    expect(outcomes).toEqual([]);
    return { sessionId, aborter, events };
  }

  it('is cancelled at once when the client closes the call’s response stream', async () => {
    const outcomes: string[] = [];
    const handle = await serveHttp(pushingServer(outcomes));
    handles.push(handle);
    const { aborter } = await pushedCall(handle.url, outcomes);
    aborter.abort();
    await expect
      .poll(() => outcomes, { timeout: 20_000 })
      .toEqual(['failed: SdkError: The client closed the response stream of this request.']);
  });

  it('is cancelled at once when the session is deleted', async () => {
    const outcomes: string[] = [];
    const handle = await serveHttp(pushingServer(outcomes));
    handles.push(handle);
    const { sessionId, events } = await pushedCall(handle.url, outcomes);
    expect((await send({ url: handle.url, sessionId }, { method: 'DELETE' })).status).toBe(200);
    await expect.poll(() => outcomes.length, { timeout: 20_000 }).toBe(1);
    expect(outcomes[0]).toBe('failed: SdkError: Connection closed');
    await events.cancel();
  });
});
