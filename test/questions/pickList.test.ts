/**
 * `pickList` renders titled choices as the form's titled enum, and an answer off the list is asked
 * again with the reason; empty or duplicated options are refused when the list is built.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { elicit, McpResolveError, McpResolveServer, pickList, resolver } from 'mcp-resolve';
import { connectInProcess } from 'mcp-resolve/testing';

const LINES = [
  { sku: 'enamel-mug', name: 'Enamel mug' },
  { sku: 'canvas-tote', name: 'Canvas tote' },
];

function desk(): McpResolveServer {
  const item = resolver({ name: 'item' }, () =>
    elicit('Which item?', z.object({ sku: pickList(LINES.map((line) => ({ value: line.sku, title: line.name }))) })),
  );
  return new McpResolveServer({ name: 'desk', version: '1.0.0' }).tool(
    'refund_item',
    { resolve: { item } },
    ({ item }) => `refunding ${item.sku}`,
  );
}

describe('pickList', () => {
  for (const era of ['modern', 'legacy'] as const) {
    it(`${era}: the form shows a titled select, and an answer off the list is asked again`, async () => {
      const asked: unknown[] = [];
      const answers = ['sticker-pack', 'canvas-tote'];
      const connection = await connectInProcess(desk(), {
        era,
        elicit: (params) => {
          asked.push(params);
          return { action: 'accept', content: { sku: answers.shift() ?? '' } };
        },
      });
      const result = await connection.client.callTool({ name: 'refund_item', arguments: {} });
      await connection.close();
      expect(result.content).toEqual([{ type: 'text', text: 'refunding canvas-tote' }]);
      expect(asked).toHaveLength(2);
      expect(asked[0]).toMatchObject({
        requestedSchema: {
          properties: {
            sku: {
              type: 'string',
              oneOf: [
                { const: 'enamel-mug', title: 'Enamel mug' },
                { const: 'canvas-tote', title: 'Canvas tote' },
              ],
            },
          },
          required: ['sku'],
        },
      });
    });
  }

  it('refuses an empty list and a value offered twice, naming the fix', () => {
    expect(() => pickList([])).toThrow(
      new McpResolveError(
        'invalid_declaration',
        'pickList(): there are no options (got an empty array). Offer at least one, or do not ask when there is nothing to pick.',
        { data: { kind: 'question', field: 'options' } },
      ),
    );
    expect(() =>
      pickList([
        { value: 'a', title: 'A' },
        { value: 'a', title: 'Also A' },
      ]),
    ).toThrow("pickList(): the value 'a' is offered twice. Give each option its own value.");
  });
});
