/**
 * serveHttp's JSON path (src/node/jsonExchange.ts): JSON POSTs to the endpoint are read and answered
 * on `node:http` directly, with the answers the SDK adapter gave: a body over the limit gets its 413
 * (declared or streamed), a body that is not JSON the hosting's parse error, a throwing
 * `authenticate` hook its 500, and a reply that streams (a notification before the result) still
 * arrives as an event stream.
 */
import { request as httpRequest } from 'node:http';

import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { McpResolveServer } from '../../src/index.js';
import { CLIENT_LEFT_REASON } from '../../src/clientLeft.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';

/** The desk, its per-process-key warning silenced. */
const desk = () => createRefundDesk({ onerror: () => {} });

const running: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((handle) => handle.close()));
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'json-exchange-test', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
};

interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** POSTs `chunks` to `url` (no Content-Length: chunked) and reads the whole reply. */
function post(url: URL, chunks: readonly string[], headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const callBody = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name, arguments: args, ...extra, _meta: META },
  });

describe('serveHttp JSON exchanges', () => {
  it('answers a JSON call with one JSON reply of declared length, a query string on the path included', async () => {
    const served = await serveHttp(desk());
    running.push(served);
    const url = new URL(`${served.url.href}?from=test`);
    const reply = await post(url, [callBody('refund_order', { order_id: 'ORD-7001', reason: 'download corrupted' })], {
      ...HEADERS,
      'mcp-name': 'refund_order',
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.headers['transfer-encoding']).toBeUndefined();
    expect(reply.headers['content-length']).toBe(String(Buffer.byteLength(reply.body)));
    expect(JSON.parse(reply.body)).toMatchObject({ id: 7, result: { structuredContent: { refunded_cents: 1500 } } });
  });

  it.each([
    ['declared', true],
    ['streamed', false],
  ])('answers a body over maxRequestBodyBytes (%s) with the adapter’s 413 and closes', async (_how, declared) => {
    const served = await serveHttp(desk(), { maxRequestBodyBytes: 64 });
    running.push(served);
    const chunks = ['{"jsonrpc":"2.0","id":1,', `"method":"ping","params":{"pad":"${'x'.repeat(80)}"}}`];
    const length = Buffer.byteLength(chunks.join(''));
    const reply = await post(served.url, chunks, {
      ...HEADERS,
      ...(declared && { 'content-length': String(length) }),
    });
    expect(reply.status).toBe(413);
    expect(reply.headers.connection).toBe('close');
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Payload Too Large: Request body must not exceed 64 bytes' },
      id: null,
    });
  });

  it('answers a body that is not JSON with the hosting’s parse error', async () => {
    const served = await serveHttp(desk());
    running.push(served);
    const reply = await post(served.url, ['{"jsonrpc": "2.0", '], HEADERS);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: -32700, message: 'Parse error: Invalid JSON' } });
  });

  it('streams a reply that carries a notification before its result', async () => {
    const factory = () => {
      const server = new McpServer({ name: 'progress', version: '0.0.0' }, { capabilities: { tools: {} } });
      server.registerTool('slow', { inputSchema: z.object({}) }, async (_args, ctx) => {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: 'p1', progress: 1 } });
        return { content: [{ type: 'text', text: 'done' }] };
      });
      return server;
    };
    const served = await serveHttp(factory);
    running.push(served);
    const reply = await post(served.url, [callBody('slow', {}, { _meta: { ...META, progressToken: 'p1' } })], {
      ...HEADERS,
      'mcp-name': 'slow',
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = reply.body
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    expect(events.map((event) => event['method'] ?? 'result')).toEqual(['notifications/progress', 'result']);
  });

  it('answers a JSON call whose authenticate hook throws with the adapter’s 500, reported', async () => {
    const reports: string[] = [];
    const served = await serveHttp(desk(), {
      onerror: (error) => reports.push(error.message),
      authenticate: () => {
        throw new Error('verifier down');
      },
    });
    running.push(served);
    const reply = await post(served.url, ['{"jsonrpc":"2.0","id":1,"method":"ping"}'], HEADERS);
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal server error' },
      id: null,
    });
    expect(reports).toEqual(['verifier down']);
  });

  it.each([
    ['the modern lane', false],
    ["the SDK's own hosting", true],
  ])('cancels the call of a client that leaves mid-call (%s), and serves the next', async (_path, sdkHosted) => {
    const started: string[] = [];
    const seen: Array<{ tag: string; reason: unknown }> = [];
    const tools = new McpResolveServer({ name: 'leaving', version: '0.0.0' }).tool(
      'wait',
      { input: { tag: z.string() } },
      async ({ tag }, ctx) => {
        const signal = ctx.mcpReq.signal;
        if (tag === 'quick') return 'quick';
        started.push(tag);
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        seen.push({ tag, reason: signal.reason });
        return 'aborted';
      },
    );
    // A setup() hook: no lane, every request on a fresh instance of the SDK's hosting.
    const server = sdkHosted ? tools.setup(() => {}) : tools;
    const served = await serveHttp(server);
    running.push(served);
    const req = httpRequest(served.url, { method: 'POST', headers: { ...HEADERS, 'mcp-name': 'wait' } });
    req.on('error', () => {});
    req.end(callBody('wait', { tag: 'gone' }));
    await until(() => started.length === 1);
    req.destroy();
    await until(() => seen.length === 1);
    expect(seen).toEqual([{ tag: 'gone', reason: sdkHosted ? expect.anything() : CLIENT_LEFT_REASON }]);
    const next = await post(served.url, [callBody('wait', { tag: 'quick' })], { ...HEADERS, 'mcp-name': 'wait' });
    expect(JSON.parse(next.body)).toMatchObject({ id: 7, result: { content: [{ text: 'quick' }] } });
  });
});

const until = async (ready: () => boolean): Promise<void> => {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 5));
};
