/**
 * Seam 2 of contributing/sdk-seams.md, pinned on a plain `McpServer` with no library code but the
 * seam: `registerTool` installs its `tools/list` and `tools/call` handlers through
 * `server.setRequestHandler(method, …, handler)`, handler last, so `captureRequestHandlers` keeps
 * them. An SDK release that installs them otherwise fails here first.
 */
import type {
  CallToolRequest,
  CallToolResult,
  ListToolsRequest,
  ListToolsResult,
  ServerContext,
} from '@modelcontextprotocol/server';
import { McpServer } from '@modelcontextprotocol/server';
import { connectInProcess } from 'mcp-resolve/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { captureRequestHandlers } from '../../src/sdkSeams/requestHandlers.js';
import { ERAS, INFO, onCleanup, textOf } from '../resolvers/helpers.js';

const TOOL_METHODS: ReadonlySet<string> = new Set(['tools/list', 'tools/call']);

/** The kept handlers, as `McpServer` installs them (the seam keeps them untyped). */
type ListHandler = (request: ListToolsRequest, ctx: ServerContext) => Promise<ListToolsResult>;
type CallHandler = (request: CallToolRequest, ctx: ServerContext) => Promise<CallToolResult>;

/** A plain `McpServer` with one SDK tool and one prompt, registered while its tool handlers are kept. */
function capturingServer(): { mcp: McpServer; kept: ReadonlyMap<string, unknown> } {
  const mcp = new McpServer(INFO);
  const kept = captureRequestHandlers(mcp.server, TOOL_METHODS, () => {
    mcp.registerTool('raw', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
      content: [{ type: 'text', text: `raw:${text}` }],
    }));
    mcp.registerPrompt('greet', {}, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }));
  });
  return { mcp, kept };
}

describe('SDK 2.4: registerTool installs its tool handlers through server.setRequestHandler, handler last (seam 2)', () => {
  it('keeps the tools/list and tools/call handlers registerTool installs, and undoes the swap', () => {
    const { mcp, kept } = capturingServer();
    expect([...kept.keys()].sort()).toEqual(['tools/call', 'tools/list']);
    expect([...kept.values()].every((handler) => typeof handler === 'function')).toBe(true);
    expect(Object.hasOwn(mcp.server, 'setRequestHandler')).toBe(false);
  });

  it.each(ERAS)('%s: the kept handlers serve the SDK tool; other methods were installed as usual', async (era) => {
    const connection = await connectInProcess(
      () => {
        const { mcp, kept } = capturingServer();
        const list = kept.get('tools/list') as ListHandler;
        const call = kept.get('tools/call') as CallHandler;
        mcp.server.setRequestHandler('tools/list', (request, ctx) => list(request, ctx));
        mcp.server.setRequestHandler('tools/call', (request, ctx) => call(request, ctx));
        return mcp;
      },
      { era },
    );
    onCleanup(() => connection.close());
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['raw']);
    expect(textOf(await connection.client.callTool({ name: 'raw', arguments: { text: 'hi' } }))).toBe('raw:hi');
    const prompt = await connection.client.getPrompt({ name: 'greet' });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'hi' });
  });

  it('undoes the swap when the code it runs throws', () => {
    const mcp = new McpServer(INFO);
    expect(() =>
      captureRequestHandlers(mcp.server, TOOL_METHODS, () => {
        throw new Error('setup failed');
      }),
    ).toThrow('setup failed');
    expect(Object.hasOwn(mcp.server, 'setRequestHandler')).toBe(false);
  });
});
