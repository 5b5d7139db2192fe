import { createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { connectHttp } from '../../src/testing/index.js';
import { answers, firstText } from '../testing/scripted.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';
import { SseReader, openLegacySession, post, send } from '../../scripts/lib/wire.js';

const CALL = { timeout: 20_000 };

let served: HttpServerHandle;
beforeAll(async () => {
  served = await serveHttp(askNameServer);
});
afterAll(async () => {
  await served.close();
});

describe('serveHttp: both eras on one URL', () => {
  it('binds 127.0.0.1 on a free port and serves /mcp', () => {
    expect(served.url.hostname).toBe('127.0.0.1');
    expect(Number(served.url.port)).toBeGreaterThan(0);
    expect(served.url.pathname).toBe('/mcp');
  });

  it('serves a modern and a legacy client at the same time', async () => {
    const modern = await connectHttp(served.url, { era: 'modern', elicit: answers.elicit });
    const legacy = await connectHttp(served.url, { era: 'legacy', elicit: answers.elicit });
    try {
      expect(modern.client.getProtocolEra()).toBe('modern');
      expect(legacy.client.getProtocolEra()).toBe('legacy');
      const [fromModern, fromLegacy] = await Promise.all([
        modern.client.callTool({ name: 'greet', arguments: {} }, CALL),
        legacy.client.callTool({ name: 'greet', arguments: {} }, CALL),
      ]);
      expect(firstText(fromModern)).toBe('hello Ann (modern)');
      expect(firstText(fromLegacy)).toBe('hello Ann (legacy)');
      expect(modern.counters.legs).toEqual({ 'tools/call': 2 });
      expect(modern.counters.pushes).toBe(0);
      expect(legacy.counters.legs).toEqual({ 'tools/call': 1 });
      expect(legacy.counters.pushes).toBe(1);
    } finally {
      await Promise.all([modern.close(), legacy.close()]);
    }
  });

  it('answers every kind of legacy push over HTTP', async () => {
    const legacy = await connectHttp(served.url, { era: 'legacy', ...answers });
    try {
      const result = await legacy.client.callTool({ name: 'survey', arguments: {} }, CALL);
      expect(firstText(result)).toBe('Ann | roses | file:///work');
      expect(legacy.counters.pushes).toBe(3);
    } finally {
      await legacy.close();
    }
  });
});

describe('legacy pushes over HTTP', () => {
  it("ride the originating call's response stream when related to it", async () => {
    // No GET stream is opened: the push can only reach the client on the tools/call POST stream.
    const sessionId = await openLegacySession({ url: served.url });
    const session = { url: served.url, sessionId };
    const call = await post(session, {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'greet', arguments: {} },
    });
    expect(call.status).toBe(200);
    expect(call.headers.get('content-type')).toContain('text/event-stream');
    const stream = new SseReader(call);
    const push = await stream.next();
    expect(push).toMatchObject({ method: 'elicitation/create', params: { message: 'What is your name?' } });
    const answer = await post(session, {
      jsonrpc: '2.0',
      id: push.id,
      result: { action: 'accept', content: { name: 'Bo' } },
    });
    expect(answer.status).toBe(202);
    expect(await stream.next()).toMatchObject({
      id: 7,
      result: { content: [{ type: 'text', text: 'hello Bo (legacy)' }] },
    });
    expect(await stream.ends()).toBe(true);
    await send(session, { method: 'DELETE' });
  });

  it("ride the call's stream when the SDK's legacy shim turns input_required into a push", async () => {
    const sessionId = await openLegacySession({ url: served.url });
    const session = { url: served.url, sessionId };
    const call = await post(session, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'greet_mrtr', arguments: {} },
    });
    const stream = new SseReader(call);
    const push = await stream.next();
    expect(push).toMatchObject({ method: 'elicitation/create' });
    await post(session, { jsonrpc: '2.0', id: push.id, result: { action: 'accept', content: { name: 'Di' } } });
    expect(await stream.next()).toMatchObject({
      id: 3,
      result: { content: [{ type: 'text', text: 'hello Di (legacy, one definition)' }] },
    });
    await send(session, { method: 'DELETE' });
  });

  it('ride the standalone GET stream when not related to a call', async () => {
    const sessionId = await openLegacySession({ url: served.url });
    const session = { url: served.url, sessionId };
    const listening = await send(session, { method: 'GET' });
    expect(listening.status).toBe(200);
    const standalone = new SseReader(listening);
    const call = await post(session, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'greet_unrelated', arguments: {} },
    });
    const push = await standalone.next();
    expect(push).toMatchObject({ method: 'elicitation/create' });
    await post(session, { jsonrpc: '2.0', id: push.id, result: { action: 'accept', content: { name: 'Cy' } } });
    expect(await new SseReader(call).next()).toMatchObject({
      id: 1,
      result: { content: [{ type: 'text', text: 'hello Cy (unrelated push)' }] },
    });
    await standalone.cancel();
    await send(session, { method: 'DELETE' });
  });

  it('fail fast, not by timeout, when the session has no way to reach the client', async () => {
    const sessionId = await openLegacySession({ url: served.url });
    const session = { url: served.url, sessionId };
    const call = await post(session, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'greet_unrelated', arguments: {} },
    });
    // The reply names the cause, which a timeout would not: no clock is needed to tell them apart.
    const reply = await new SseReader(call).next();
    expect(reply).toMatchObject({ id: 1, result: { isError: true } });
    expect(JSON.stringify(reply)).toContain('no open GET stream');
    await send(session, { method: 'DELETE' });
  });

  it("fail fast on the SDK's stateless legacy fallback (documented: no back-channel there)", async () => {
    // createMcpHandler's default legacy leg builds a fresh, never-initialized instance per POST, so the
    // server does not know the client's capabilities and refuses the push at once (an isError result).
    const stateless = createMcpHandler(askNameServer);
    try {
      const legacy = await connectHttp(new URL('http://localhost/mcp'), {
        era: 'legacy',
        elicit: answers.elicit,
        transportOptions: { fetch: (url, init) => stateless.fetch(new Request(url, init)) },
      });
      try {
        // The refusal names the missing capability, which a timeout would not.
        const result = await legacy.client.callTool({ name: 'greet', arguments: {} }, CALL);
        expect(result.isError).toBe(true);
        expect(firstText(result)).toBe('Client does not support form elicitation.');
        expect(legacy.counters.pushes).toBe(0);
      } finally {
        await legacy.close();
      }
    } finally {
      await stateless.close();
    }
  });
});

// serveHttp sends a POST whose header names a modern revision straight to the modern leg (skipping
// isLegacyRequest); these answers must be the ones the SDK's classification gives.
describe('era routing of a POST that names a modern revision in its header', () => {
  const MODERN = { 'mcp-protocol-version': '2026-07-28' };
  it('still hands a posted answer (a JSON-RPC response) to the legacy leg', async () => {
    const response = await post({ url: served.url }, { jsonrpc: '2.0', id: 'mcpr:x:1', result: {} }, MODERN);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' },
    });
  });

  it('refuses an initialize or a request without the envelope as the SDK classifies them', async () => {
    const initialize = await post(
      { url: served.url },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      },
      MODERN,
    );
    const bare = await post({ url: served.url }, { jsonrpc: '2.0', id: 3, method: 'ping' }, MODERN);
    expect([initialize.status, bare.status]).toEqual([400, 400]);
    expect(((await initialize.json()) as { error: unknown }).error).toMatchObject({
      code: -32020,
      message:
        'Bad Request: the request headers and body disagree: an initialize request (legacy handshake) was sent with a modern MCP-Protocol-Version header',
    });
    expect(((await bare.json()) as { error: unknown }).error).toMatchObject({
      code: -32602,
      message:
        'Invalid params: the MCP-Protocol-Version header names protocol revision 2026-07-28, but the request is missing the required per-request envelope key(s): _meta',
    });
  });
});
