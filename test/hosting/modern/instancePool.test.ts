/**
 * The pooled factory behind the SDK's own `createMcpHandler`: modern requests reuse idle instances
 * (one build for many requests), while each request keeps its own `authInfo`, abort signal and
 * answer; an instance whose client left mid-exchange is never lent again; legacy requests get a
 * fresh instance.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import type { Gate } from '../fixtures/modernCalls.js';
import { gatedServer, toolCallHeaders, until } from '../fixtures/modernCalls.js';

import { createRefundDesk } from '../../../examples/stories/refund-desk/desk.js';
import { pooledFactory } from '../../../src/hosting/modern/instancePool.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'pool-test', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A modern `tools/call` POST (JSON-RPC id 1 every time, as separate clients send). */
function call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: toolCallHeaders(name),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, _meta: META },
    }),
    ...(signal !== undefined && { signal }),
  });
}

const auth = (clientId: string): AuthInfo => ({ token: clientId, clientId, scopes: [] });

/** The text of a JSON answer's first content block. */
async function textOf(response: Response): Promise<string> {
  const body = (await response.json()) as { result?: { content?: Array<{ text?: string }> } };
  return body.result?.content?.[0]?.text ?? JSON.stringify(body);
}

describe('pooledFactory', () => {
  it('serves one request after another from one instance, every answer right', async () => {
    const factory = pooledFactory(createRefundDesk().createServer);
    const handler = createMcpHandler(factory, { legacy: 'reject' });
    for (let round = 0; round < 5; round++) {
      const response = await handler.fetch(
        call('refund_order', { order_id: 'ORD-7001', reason: 'download corrupted' }),
      );
      expect(JSON.parse(await textOf(response))).toMatchObject({ order_id: 'ORD-7001', refunded_cents: 1500 });
    }
    await handler.close();
    expect(factory.stats).toEqual({ created: 1, reused: 4, dropped: 0 });
  });

  it('keeps concurrent requests apart: each sees its own authInfo and gets its own answer, same ids', async () => {
    const gates = new Map<string, Gate>();
    const factory = pooledFactory(gatedServer(gates));
    const handler = createMcpHandler(factory, { legacy: 'reject' });
    const alice = handler.fetch(call('who', { tag: 'a' }), { authInfo: auth('alice') });
    const bob = handler.fetch(call('who', { tag: 'b' }), { authInfo: auth('bob') });
    await until(() => gates.size === 2);
    gates.get('b')?.release();
    expect(await textOf(await bob)).toBe('b:bob');
    gates.get('a')?.release();
    expect(await textOf(await alice)).toBe('a:alice');
    const carol = handler.fetch(call('who', { tag: 'c' }), { authInfo: auth('carol') });
    await until(() => gates.has('c'));
    gates.get('c')?.release();
    expect(await textOf(await carol)).toBe('c:carol');
    await handler.close();
    expect(factory.stats).toEqual({ created: 2, reused: 1, dropped: 0 });
  });

  it('drops the instance of a request whose client left; the next request is served by another, unaborted', async () => {
    const gates = new Map<string, Gate>();
    const factory = pooledFactory(gatedServer(gates));
    const handler = createMcpHandler(factory, { legacy: 'reject' });
    const leaving = new AbortController();
    const left = handler.fetch(call('who', { tag: 'gone' }, leaving.signal), { authInfo: auth('mallory') });
    await until(() => gates.has('gone'));
    leaving.abort();
    await left.catch(() => undefined);
    expect(gates.get('gone')?.signal?.aborted).toBe(true);
    expect(factory.stats.dropped).toBe(1);
    const next = handler.fetch(call('who', { tag: 'next' }), { authInfo: auth('alice') });
    await until(() => gates.has('next'));
    expect(gates.get('next')?.signal?.aborted).toBe(false);
    gates.get('next')?.release();
    expect(await textOf(await next)).toBe('next:alice');
    await handler.close();
    expect(factory.stats).toMatchObject({ created: 2, reused: 0 });
  });

  it('builds a fresh instance for every legacy request and for a request it is not shown', () => {
    let built = 0;
    const factory = pooledFactory(() => {
      built++;
      return new McpServer({ name: 'pool-test', version: '0.0.0' });
    });
    const a = factory({ era: 'legacy' });
    const b = factory({ era: 'legacy' });
    const c = factory({ era: 'modern' });
    expect(a).not.toBe(b);
    expect(c).not.toBe(a);
    expect(built).toBe(3);
  });

  it('keeps at most maxIdle instances', async () => {
    const gates = new Map<string, Gate>();
    const factory = pooledFactory(gatedServer(gates), 1);
    const handler = createMcpHandler(factory, { legacy: 'reject' });
    const pending = ['x', 'y', 'z'].map((tag) => handler.fetch(call('who', { tag })));
    await until(() => gates.size === 3);
    for (const gate of gates.values()) gate.release();
    await Promise.all(pending);
    await until(() => factory.stats.dropped === 2);
    await handler.close();
    expect(factory.stats).toMatchObject({ created: 3, dropped: 2 });
  });
});
