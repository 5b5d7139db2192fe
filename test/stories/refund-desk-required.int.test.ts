/**
 * The refund desk requires what the reference requires: `full` in the scope form and `restock` in
 * the restock form. An accepted `{"sku": "canvas-tote"}` without `full` is refused (asked again,
 * then the call fails), never read as a refund of the whole order (4800); likewise a restock answer
 * without `restock`. Over real HTTP on both eras. Project: integration (it spawns the desk).
 */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import { connectStory } from '../../examples/stories/lib/serverProcess.js';
import { SERVER } from '../../examples/stories/refund-desk/client.js';

const ERAS = ['modern', 'legacy'] as const;

/** Connects to the desk over HTTP, answering each question with `answer(topic)`; returns the call's result and what was asked. */
async function refund(era: (typeof ERAS)[number], answer: (topic: 'scope' | 'restock') => ElicitResult) {
  const asked: string[] = [];
  const elicit = (params: ElicitRequest['params']): ElicitResult => {
    const topic = 'requestedSchema' in params && 'full' in params.requestedSchema.properties ? 'scope' : 'restock';
    asked.push(topic);
    return answer(topic);
  };
  const connection = await connectStory(SERVER, 'refund-desk', 'http', { era, elicit, serverArgs: [] });
  try {
    const result = await connection.client.callTool({
      name: 'refund_order',
      arguments: { order_id: 'ORD-7002', reason: 'wrong colour' },
    });
    const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
    return { result, text, asked };
  } finally {
    await connection.close();
  }
}

describe('refund desk: required answers', () => {
  it.each(ERAS)('refuses an accepted {"sku": "canvas-tote"} without `full` on %s', async (era) => {
    const { result, text, asked } = await refund(era, (topic): ElicitResult => ({
      action: 'accept',
      content: topic === 'scope' ? { sku: 'canvas-tote' } : { restock: true },
    }));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(text).toContain('does not match the requested schema');
    expect(text).not.toContain('4800');
    // Asked again (the default 3 attempts), never the restock question: no amount was computed.
    expect(asked).toEqual(['scope', 'scope', 'scope']);
  });

  it.each(ERAS)('refuses an accepted restock answer without `restock` on %s', async (era) => {
    const { result, asked } = await refund(era, (topic): ElicitResult => ({
      action: 'accept',
      content: topic === 'scope' ? { full: false, sku: 'canvas-tote' } : {},
    }));
    expect(result.isError).toBe(true);
    expect(asked).toEqual(['scope', 'restock', 'restock', 'restock']);
  });
});
