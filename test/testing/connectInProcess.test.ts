/** Issue 23 item 6: `connectInProcess` accepts what hosting accepts and refuses anything else by name. */
import { describe, expect, it } from 'vitest';

import type { ServerSource } from 'mcp-resolve';
import { McpResolveServer } from 'mcp-resolve';
import { connectInProcess } from 'mcp-resolve/testing';

const desk = new McpResolveServer({ name: 'desk', version: '1.0.0' }).tool('ping', {}, () => 'pong');

describe('connectInProcess', () => {
  it.each<[string, ServerSource]>([
    ['a McpResolveServer', desk],
    ['an SDK server factory', desk.createServer],
  ])('connects to %s', async (_label, source) => {
    const connection = await connectInProcess(source, { era: 'modern' });
    const result = await connection.client.callTool({ name: 'ping', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'pong' }]);
    await connection.close();
  });

  it('refuses anything else naming what it expects', async () => {
    const wrong = { server: desk } as unknown as ServerSource;
    await expect(connectInProcess(wrong, { era: 'modern' })).rejects.toThrow(
      'connectInProcess() expects a McpResolveServer or an SDK server factory (() => McpServer), got an object without createServer (Object).',
    );
  });
});
