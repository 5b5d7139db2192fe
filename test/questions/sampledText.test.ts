/** Issue 23 item 9: `sample()`'s consumer gets the SDK's result type and `sampledText` reads its text. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import type { SampleResult } from 'mcp-resolve';
import { McpResolveServer, resolver, sample, sampledText } from 'mcp-resolve';
import { connectInProcess } from 'mcp-resolve/testing';

const summary = resolver({ args: { topic: z.string() } }, ({ topic }) =>
  sample({ messages: [{ role: 'user', content: { type: 'text', text: topic } }], maxTokens: 50 }),
);

const server = new McpResolveServer({ name: 'notes', version: '1.0.0' }).tool(
  'summarise',
  { input: { topic: z.string() }, resolve: { summary } },
  ({ summary }) => sampledText(summary),
);

describe.each(['modern', 'legacy'] as const)('sampledText on %s', (era) => {
  it('reads the text of a single-block result', async () => {
    const connection = await connectInProcess(server, {
      era,
      sample: () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'short' } }),
    });
    const result = await connection.client.callTool({ name: 'summarise', arguments: { topic: 'rooms' } });
    expect(result.content).toEqual([{ type: 'text', text: 'short' }]);
    await connection.close();
  });
});

describe('sampledText', () => {
  it('joins the text blocks of an array result and skips the others', () => {
    const result: SampleResult = {
      role: 'assistant',
      model: 'm',
      content: [
        { type: 'text', text: 'one' },
        { type: 'tool_use', id: 't', name: 'x', input: {} },
        { type: 'text', text: 'two' },
      ],
    };
    expect(sampledText(result)).toBe('one\ntwo');
  });
});
