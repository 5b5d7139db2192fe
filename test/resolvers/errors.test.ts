/** resolvers.md §13 [N]: resolver errors look like tool errors; protocol errors stay top-level JSON-RPC errors. */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import { elicit, resolver, ToolError } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { accept, asked, call, connect, connectManual, ERAS, newServer, textOf } from './helpers.js';

const Pick = z.object({ pick: z.string() });

/** The parts of a tool result a client sees, without transport metadata. */
function visible(result: CallToolResult): Pick<CallToolResult, 'content' | 'isError' | 'structuredContent'> {
  return { content: result.content, isError: result.isError, structuredContent: result.structuredContent };
}

const quiet = { onerror: () => {} };

describe.each(ERAS)('errors from resolvers (%s)', (era) => {
  it.each<[string, () => never, (text: string) => string]>([
    [
      'a ToolError',
      () => {
        throw new ToolError("unknown order 'ORD-9999'");
      },
      (text) => text,
    ],
    [
      'a plain Error (masked, each call with its own reference)',
      () => {
        throw new Error("unknown order 'ORD-9999'");
      },
      (text) => text.replace(/ref [0-9a-f]{12}/, 'ref <id>'),
    ],
  ])('[N1] %s thrown by a resolver surfaces exactly like one thrown by the tool body', async (_kind, fail, stable) => {
    const failing = resolver({ name: 'failing' }, fail);
    const asyncFailing = resolver({ name: 'asyncFailing' }, async () => {
      await Promise.resolve();
      return fail();
    });
    let bodyRuns = 0;
    const server = newServer({ onerror: () => {} })
      .tool('fromBody', {}, () => fail())
      .tool('fromResolver', { resolve: { v: failing } }, () => {
        bodyRuns++;
        return 'ran';
      })
      .tool('fromAsyncResolver', { resolve: { v: asyncFailing } }, () => {
        bodyRuns++;
        return 'ran';
      });
    const connection = await connect(server, { era });
    const seen = async (name: string) => {
      const result = visible(await call(connection, name));
      return {
        ...result,
        content: result.content.map((block) =>
          block.type === 'text' ? { ...block, text: stable(block.text) } : block,
        ),
      };
    };
    const fromBody = await seen('fromBody');
    expect(fromBody.isError).toBe(true);
    expect(await seen('fromResolver')).toEqual(fromBody);
    expect(await seen('fromAsyncResolver')).toEqual(fromBody);
    expect(bodyRuns).toBe(0);
  });

  it('[N1] a resolver failing after an answer (a later round on modern) surfaces the same way', async () => {
    const ask = resolver({ name: 'ask' }, () => elicit('Which order?', Pick));
    const load = resolver({ name: 'load', deps: { ask } }, ({ ask: a }) => {
      throw new ToolError(`unknown order '${a.pick}'`);
    });
    const server = newServer().tool('t', { resolve: { load } }, () => 'ran');
    const connection = await connect(server, {
      era,
      elicit: () => ({ action: 'accept', content: { pick: 'ORD-9999' } }),
    });
    const result = await call(connection, 't');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("unknown order 'ORD-9999'");
  });

  it("[N1] the refund desk's unknown order is a tool error", async () => {
    const connection = await connect(createRefundDesk(), { era });
    const result = await call(connection, 'refund_order', { order_id: 'ORD-9999', reason: 'typo' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("unknown order 'ORD-9999'");
  });

  it('[N2] the capability error is a top-level JSON-RPC error, never an isError result', async () => {
    const ask = resolver({ name: 'ask' }, () => elicit('Name?', Pick));
    const server = newServer().tool('t', { resolve: { ask } }, () => 'ran');
    const connection = await connect(server, { era, capabilities: {} });
    const outcome = await call(connection, 't').then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    expect(outcome).not.toHaveProperty('result');
    expect(outcome).toHaveProperty('error');
    expect('error' in outcome && outcome.error instanceof ProtocolError && outcome.error.code).toBe(-32021);
  });
});

describe('the frozen requestState error (modern only: requestState exists only there)', () => {
  it.each<[string, (state: string) => string]>([
    ['tampered', (state) => `${state.slice(0, -4)}AAAA`],
    ['truncated', (state) => state.slice(0, 20)],
    ['not a token at all', () => 'hello'],
  ])('[N2] a %s requestState is a top-level -32602 error before any resolver runs', async (_case, spoil) => {
    let runs = 0;
    const ask = resolver({ name: 'ask' }, () => {
      runs++;
      return elicit('Name?', Pick);
    });
    const server = newServer(quiet).tool('t', { resolve: { ask } }, () => 'ran');
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', {}));
    expect(runs).toBe(1);
    const attempt = manual.round(
      't',
      {},
      { inputResponses: { ask: accept({ pick: 'x' }) }, requestState: spoil(r1.requestState ?? '') },
    );
    await expect(attempt).rejects.toBeInstanceOf(ProtocolError);
    await expect(attempt).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
      data: { reason: 'invalid_request_state' },
    });
    expect(runs).toBe(1);
  });

  it('[N2] a requestState lifted onto other arguments is the same top-level -32602 error', async () => {
    const ask = resolver({ name: 'ask', args: { id: z.string() } }, ({ id }) => elicit(`Name for ${id}?`, Pick));
    const server = newServer(quiet).tool('t', { input: { id: z.string() }, resolve: { ask } }, () => 'ran');
    const manual = await connectManual(server);
    const r1 = asked(await manual.round('t', { id: 'a' }));
    const attempt = manual.round(
      't',
      { id: 'b' },
      { inputResponses: { ask: accept({ pick: 'x' }) }, requestState: r1.requestState },
    );
    await expect(attempt).rejects.toMatchObject({ code: -32602, data: { reason: 'invalid_request_state' } });
  });
});
