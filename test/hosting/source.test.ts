/**
 * A server source taken apart for HTTP hosting: a McpResolveServer hands over its instance reuse as
 * a value (the hosting serves it on its lane), and anything given as a bare factory (its own
 * `createServer` included) is an SDK factory, served with a fresh instance per request.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';

import { toolCallHeaders } from './fixtures/modernCalls.js';

import { hostDualEra } from '../../src/hosting/dualEraHandler.js';
import { hostedServer } from '../../src/hosting/source.js';
import { McpResolveServer } from '../../src/index.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const KEYS = { requestState: { keys: ['a'.repeat(64)] } };
const server = () => new McpResolveServer({ name: 'source', version: '1' }, KEYS).tool('hi', {}, () => 'hi');

describe('hostedServer', () => {
  it("takes a McpResolveServer's instance reuse from the server itself", () => {
    const desk = server();
    expect(hostedServer(desk, 'test').reuse).toBe(desk.instanceReuse);
  });

  it("takes no instance reuse from a bare factory, a server's own createServer included", () => {
    expect(hostedServer(server().createServer, 'test').reuse).toBeUndefined();
    expect(hostedServer(() => new McpServer({ name: 'sdk', version: '1' }), 'test').reuse).toBeUndefined();
  });

  it('serves the server on one instance (its lane), its bare createServer on a fresh instance per request', async () => {
    const connects = vi.spyOn(McpServer.prototype, 'connect');
    const desk = server();
    const call = (): Request =>
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { ...toolCallHeaders('hi'), host: '127.0.0.1' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hi', _meta: META } }),
      });
    const connectsFor = async (source: Parameters<typeof hostDualEra>[0]): Promise<number> => {
      connects.mockClear();
      const { handler } = hostDualEra(source, undefined, 'test');
      for (let round = 0; round < 3; round++) expect((await handler.fetch(call())).status).toBe(200);
      await handler.close();
      return connects.mock.calls.length;
    };
    try {
      // The lane: its instance prepared by the SDK's hosting (one connection), then connected to its transport once.
      expect(await connectsFor(desk)).toBe(2);
      expect(await connectsFor(desk.createServer)).toBe(3);
    } finally {
      connects.mockRestore();
    }
  });
});
