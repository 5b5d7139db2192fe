/**
 * What SDK 2.4's public tool registration cannot do for library tools: the behaviour behind each
 * seam of contributing/sdk-seams.md, shown on a plain `McpServer` with no library code. Each test
 * is the "test that shows it" of an upstream proposal on that page, and fails the day the SDK
 * changes the behaviour — then the seam can go (the page says how).
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { createMcpHandler, McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { connectInProcess } from 'mcp-resolve/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { post } from '../../scripts/lib/wire.js';
import { ERAS, INFO, onCleanup, textOf } from '../resolvers/helpers.js';

/** Connects a client on `era` to a fresh plain `McpServer` that `configure` sets up. */
async function connectSdk(era: (typeof ERAS)[number], configure: (mcp: McpServer) => void) {
  const connection = await connectInProcess(
    () => {
      const mcp = new McpServer(INFO);
      configure(mcp);
      return mcp;
    },
    { era },
  );
  onCleanup(() => connection.close());
  return connection;
}

/** A modern `tools/call` POST of `name` to `handler`, with `extra` in the params and `headers` added. */
async function postCall(
  handler: ReturnType<typeof createMcpHandler>,
  name: string,
  extra: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const response = await post(
    { url: new URL('http://localhost/mcp'), fetch: (request) => handler.fetch(request) },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        ...extra,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
        },
      },
    },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name, ...headers },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('SDK 2.4: a registerTool callback cannot end a call with a JSON-RPC error (proposal A)', () => {
  it.each(ERAS)(
    '%s: a ProtocolError thrown by the callback (-32602, -32021) reaches the client as an isError result',
    async (era) => {
      const connection = await connectSdk(era, (mcp) => {
        mcp.registerTool('stale', {}, () => {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState.');
        });
        mcp.registerTool('gated', {}, () => {
          throw new ProtocolError(-32021, 'The client does not declare elicitation.');
        });
      });
      for (const [name, text] of [
        ['stale', 'Invalid or expired requestState.'],
        ['gated', 'The client does not declare elicitation.'],
      ] as const) {
        const result = await connection.client.callTool({ name, arguments: {} });
        expect(result).toMatchObject({ isError: true });
        expect(textOf(result)).toBe(text);
      }
    },
  );

  it('the SDK requestState verify hook, which runs before the handler, does not see the tool or its arguments', async () => {
    const seen: ServerContext[] = [];
    const handler = createMcpHandler(
      () => {
        const mcp = new McpServer(INFO, {
          requestState: {
            verify: (_state, ctx) => {
              seen.push(ctx);
              return {};
            },
          },
        });
        mcp.registerTool('bound', { inputSchema: z.object({ city: z.string() }) }, () => ({ content: [] }));
        return mcp;
      },
      { legacy: 'reject' },
    );
    onCleanup(() => handler.close());
    await postCall(handler, 'bound', { arguments: { city: 'Lyon' }, requestState: 'opaque' });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.mcpReq.method).toBe('tools/call');
    expect(Object.keys(seen[0]?.mcpReq ?? {})).not.toContain('params');
    expect(JSON.stringify(seen[0]?.mcpReq)).not.toMatch(/bound|Lyon/);
  });
});

describe('SDK 2.4: registerTool changes what the server advertises', () => {
  it('the first registerTool advertises tools.listChanged: true, as library servers do', () => {
    const mcp = new McpServer(INFO);
    mcp.registerTool('any', {}, () => ({ content: [] }));
    expect(mcp.server.getCapabilities().tools).toEqual({ listChanged: true });
  });
});

/** The input schema of `regional`, whose `region` argument is declared as the `Region` header. */
const REGIONAL_INPUT = {
  type: 'object' as const,
  properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
  required: ['region'],
};

/**
 * A modern POST of `regional` (region `eu` in the body, `us` in its header) to a server of `Server`
 * that lists and answers the tool with handlers set by `setRequestHandler`, not `registerTool`.
 */
async function callRegional(Server: typeof McpServer) {
  const handler = createMcpHandler(
    () => {
      const mcp = new Server(INFO, { capabilities: { tools: {} } });
      mcp.server.setRequestHandler('tools/list', () => ({
        tools: [{ name: 'regional', inputSchema: REGIONAL_INPUT }],
      }));
      mcp.server.setRequestHandler('tools/call', () => ({ content: [{ type: 'text', text: 'served' }] }));
      return mcp;
    },
    { legacy: 'reject' },
  );
  onCleanup(() => handler.close());
  return postCall(handler, 'regional', { arguments: { region: 'eu' } }, { 'mcp-param-region': 'us' });
}

describe('SDK 2.4: SEP-2243 header validation covers registerTool tools only (proposal B, seam 1)', () => {
  it('a tool answered by a tools/call handler set with setRequestHandler has its Mcp-Param headers unchecked', async () => {
    const reply = await callRegional(McpServer);
    // A registerTool tool with this schema gets 400 / -32020 (test/server/resolvingMcpServer.test.ts).
    expect(reply.status).toBe(200);
    expect(JSON.stringify(reply.body)).toContain('served');
  });
});

describe("SDK 2.4: the HTTP entry asks McpServer.toolInputSchemaJson for a tool's schema (seam 1 pinned)", () => {
  it('an McpServer subclass that answers toolInputSchemaJson for a handler-served tool gets its Mcp-Param headers checked', async () => {
    const asked: string[] = [];
    /** The override `ResolvingMcpServer` makes, on a plain server: a rename or a bypass in the SDK fails here. */
    class SchemaAnswering extends McpServer {
      override toolInputSchemaJson(name: string): Record<string, unknown> | undefined {
        asked.push(name);
        return name === 'regional' ? REGIONAL_INPUT : super.toolInputSchemaJson(name);
      }
    }
    const reply = await callRegional(SchemaAnswering);
    expect(asked).toContain('regional');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: { code: -32020 } });
  });
});

describe('SDK 2.4: the handler McpServer installs for its tools is not reachable (proposal C, seam 2)', () => {
  it.each(ERAS)(
    '%s: a tools/call handler set after registerTool answers every tool, and the SDK offers no way to forward to its own',
    async (era) => {
      const connection = await connectSdk(era, (mcp) => {
        mcp.registerTool('raw', {}, () => ({ content: [{ type: 'text', text: 'sdk' }] }));
        // @ts-expect-error -- SDK 2.4 keeps the handler getter protected (Protocol._getRequestHandler); an unused directive means it went public
        expect(typeof mcp.server._getRequestHandler).toBe('function');
        mcp.server.setRequestHandler('tools/call', () => ({ content: [{ type: 'text', text: 'custom' }] }));
      });
      const result = await connection.client.callTool({ name: 'raw', arguments: {} });
      expect(textOf(result)).toBe('custom');
    },
  );
});

describe('SDK 2.4: tool validation wording is private (proposal D, seam 3)', () => {
  it.each(ERAS)('%s: input and output errors name each issue as path: message, joined by ", "', async (era) => {
    const connection = await connectSdk(era, (mcp) => {
      mcp.registerTool(
        'pair',
        {
          inputSchema: z.object({ a: z.string(), b: z.number() }),
          outputSchema: z.object({ n: z.object({ m: z.number() }) }),
        },
        () => ({ content: [], structuredContent: { n: { m: 'x' } } }),
      );
    });
    const input = await connection.client.callTool({ name: 'pair', arguments: { a: 1, b: 'x' } });
    expect(textOf(input)).toBe(
      'Input validation error: Invalid arguments for tool pair: ' +
        'a: Invalid input: expected string, received number, b: Invalid input: expected number, received string',
    );
    const output = await connection.client.callTool({ name: 'pair', arguments: { a: 'x', b: 1 } });
    expect(textOf(output)).toBe(
      'Output validation error: Invalid structured content for tool pair: n.m: Invalid input: expected number, received string',
    );
  });
});
