/**
 * Tools registered with the SDK's own `registerTool` in `setup()` live next to library tools, and
 * SEP-2243 header validation covers library tools (src/server/resolvingMcpServer.ts). These tests
 * pin the SDK seams listed in contributing/sdk-seams.md: an SDK release that breaks one fails here
 * first (test/server/sdkLimits.test.ts shows the SDK behaviour that makes each seam necessary).
 */
import { createMcpHandler } from '@modelcontextprotocol/server';
import { elicit, McpResolveError, resolver } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { post } from '../../scripts/lib/wire.js';
import { call, connect, ERAS, newServer, onCleanup, textOf } from '../resolvers/helpers.js';

const Pick = z.object({ pick: z.string() });

/** A server with one library tool that asks, and one raw SDK tool registered in `setup()`. */
function mixedServer() {
  const choice = resolver({ name: 'choice' }, () => elicit('Pick?', Pick));
  return newServer()
    .tool(
      'library_echo',
      { input: { text: z.string() }, resolve: { choice } },
      ({ text, choice: c }) => `${text}:${c.pick}`,
    )
    .setup((mcp) => {
      mcp.registerTool(
        'raw_echo',
        { description: 'Echoes through the SDK registry.', inputSchema: z.object({ text: z.string() }) },
        ({ text }) => ({ content: [{ type: 'text', text: `raw:${text}` }] }),
      );
    });
}

describe('SDK-registered tools next to library tools', () => {
  it.each(ERAS)(
    '%s: a raw SDK tool registered in setup() is listed and answers, beside the library tool',
    async (era) => {
      const connection = await connect(mixedServer(), {
        era,
        elicit: () => ({ action: 'accept', content: { pick: 'b' } }),
      });
      const { tools } = await connection.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['library_echo', 'raw_echo']);
      expect(tools[1]?.inputSchema.properties).toHaveProperty('text');
      expect(textOf(await call(connection, 'raw_echo', { text: 'hi' }))).toBe('raw:hi');
      expect(textOf(await call(connection, 'library_echo', { text: 'hi' }))).toBe('hi:b');
      // The SDK keeps its own handling for its tools: invalid input is its isError result.
      const invalid = await call(connection, 'raw_echo', { text: 42 });
      expect(invalid.isError).toBe(true);
      await expect(connection.client.callTool({ name: 'missing', arguments: {} })).rejects.toThrow(
        /Tool missing not found/,
      );
    },
  );

  it.each(ERAS)(
    '%s: a library tool words an input error exactly as the SDK does for its own tools (contributing/sdk-seams.md, seam 3)',
    async (era) => {
      const connection = await connect(mixedServer(), { era, elicit: () => ({ action: 'cancel' }) });
      const texts = await Promise.all(
        ['raw_echo', 'library_echo'].map(async (name) => textOf(await call(connection, name, { text: 42 }))),
      );
      expect(texts[1]).toBe(texts[0]?.replace('raw_echo', 'library_echo'));
      expect(texts[0]).toMatch(/^Input validation error: Invalid arguments for tool raw_echo: text: /);
    },
  );

  it('a name registered both ways is refused when the instance is built', () => {
    const server = newServer()
      .tool('twice', {}, () => 'library')
      .setup((mcp) => {
        mcp.registerTool('twice', {}, () => ({ content: [] }));
      });
    expect(() => server.createServer()).toThrow(McpResolveError);
    expect(() => server.createServer()).toThrow(
      "Tool 'twice' is registered both with .tool() and with registerTool() in setup(): rename one of them.",
    );
  });
});

describe('SEP-2243 header validation covers library tools', () => {
  const server = newServer().tool(
    'regional',
    { input: { region: z.string().meta({ 'x-mcp-header': 'Region' }) } },
    ({ region }) => `region ${region}`,
  );

  /** A modern `tools/call` for `regional` with `region` in the body and `header` as its Mcp-Param header. */
  async function callWithHeader(header: string | undefined) {
    const handler = createMcpHandler(server.createServer, { legacy: 'reject' });
    onCleanup(() => handler.close());
    const response = await post(
      { url: new URL('http://localhost/mcp'), fetch: (request) => handler.fetch(request) },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'regional',
          arguments: { region: 'eu' },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
          },
        },
      },
      {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'regional',
        ...(header !== undefined && { 'mcp-param-region': header }),
      },
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('the library tool lists its x-mcp-header declaration', async () => {
    const connection = await connect(server, { era: 'modern' });
    const { tools } = await connection.client.listTools();
    expect(tools[0]?.inputSchema.properties?.region).toMatchObject({ 'x-mcp-header': 'Region' });
  });

  it('a matching header is served', async () => {
    const reply = await callWithHeader('eu');
    expect(reply.status).toBe(200);
    expect(JSON.stringify(reply.body)).toContain('region eu');
  });

  it('a mismatched or missing header is rejected before the tool runs (400, -32020)', async () => {
    for (const header of ['us', undefined]) {
      const reply = await callWithHeader(header);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: { code: -32020 } });
    }
  });
});
