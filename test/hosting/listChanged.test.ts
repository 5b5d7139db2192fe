/**
 * A tool registered while a server is served, announced with `notify.toolsChanged()`: a legacy
 * session gets `notifications/tools/list_changed` on its standalone stream, modern requests list
 * and call the tool from the next one on, and so does a legacy session opened after. The official
 * client, told by the advertised `tools.listChanged`, lists the tools again on either era; a legacy
 * session opened before the registration lists it too (its instance reads the server's tools).
 * The official `Client` speaks 2025-11-25 unless pinned to 2026-07-28.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import { createDualEraHandler, McpResolveServer } from '../../src/index.js';
import type { Target } from '../../scripts/lib/wire.js';
import { openLegacySession, post, send, SseReader } from '../../scripts/lib/wire.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'list-changed', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A modern request of `method`, with the standard headers (and `Mcp-Name` when it names something). */
function modern(target: Target, id: number, method: string, params: Record<string, unknown> = {}) {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return post(
    target,
    { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name },
  );
}

const names = (body: unknown): string[] =>
  (body as { result: { tools: Array<{ name: string }> } }).result.tools.map((tool) => tool.name);

describe('a tool registered while served', () => {
  it('is announced with tools/list_changed, and listed and called from the next request on', async () => {
    const server = new McpResolveServer({ name: 'growing', version: '0.0.0' }).tool('hi', {}, () => 'hi');
    const handler = createDualEraHandler(server);
    const target: Target = {
      url: new URL('http://127.0.0.1/mcp'),
      headers: { host: '127.0.0.1' },
      fetch: (request) => handler.fetch(request),
    };
    try {
      expect(names(await (await modern(target, 1, 'tools/list')).json())).toEqual(['hi']);
      const sessionId = await openLegacySession(target);
      const session = { ...target, sessionId };
      const legacyStream = new SseReader(await send(session, { method: 'GET' }));

      server.tool('added', {}, () => 'added while served');
      handler.notify.toolsChanged();

      expect(await legacyStream.next()).toMatchObject({ method: 'notifications/tools/list_changed' });
      expect(names(await (await modern(target, 3, 'tools/list')).json())).toEqual(['hi', 'added']);
      const called = await (await modern(target, 4, 'tools/call', { name: 'added', arguments: {} })).json();
      expect(called).toMatchObject({ result: { content: [{ type: 'text', text: 'added while served' }] } });
      const later = { ...target, sessionId: await openLegacySession(target) };
      const listed = await post(later, { jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} });
      expect(names(await new SseReader(listed).next())).toEqual(['hi', 'added']);
      await legacyStream.cancel();
    } finally {
      await handler.close();
    }
  });

  it.each(['modern', 'legacy'] as const)(
    "reaches the official client's listChanged handler on the %s era",
    async (era) => {
      const server = new McpResolveServer({ name: 'growing', version: '0.0.0' }).tool('hi', {}, () => 'hi');
      const handler = createDualEraHandler(server);
      const changes: string[][] = [];
      const client = new Client(
        { name: 'list-changed', version: '0.0.0' },
        {
          ...(era === 'modern'
            ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
            : { supportedProtocolVersions: ['2025-11-25'] }),
          listChanged: {
            tools: {
              debounceMs: 0,
              onChanged: (_error, tools) => changes.push((tools ?? []).map((tool) => tool.name)),
            },
          },
        },
      );
      const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (input, init) => {
          const request = new Request(input, init);
          request.headers.set('host', '127.0.0.1');
          return handler.fetch(request);
        },
      });
      try {
        await client.connect(transport);
        expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
        expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
        server.tool('added', {}, () => 'added while served');
        await expect
          .poll(() => {
            handler.notify.toolsChanged();
            return changes.at(-1);
          })
          .toEqual(['hi', 'added']);
        const listed = await client.listTools(undefined, { cacheMode: 'refresh' });
        expect(listed.tools.map((tool) => tool.name)).toEqual(['hi', 'added']);
        const called = await client.callTool({ name: 'added', arguments: {} });
        expect(called.content).toEqual([{ type: 'text', text: 'added while served' }]);
      } finally {
        await client.close();
        await handler.close();
      }
    },
  );
});
