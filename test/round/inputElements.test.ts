/**
 * The SDK's input bound (`maxToolInputElements`) holds for library tools as for tools registered
 * with `registerTool`: one option bounds both, the default is safe, the wording is the SDK's (a
 * change in the SDK's words fails here first), and a deep or wide input is refused before a
 * resolver, the sealed state or the body sees it.
 */
import { McpResolveError } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { call, connect, ERAS, newServer, textOf } from '../resolvers/helpers.js';

/** A library tool and a raw SDK tool with the same loose input, counting the bodies that ran. */
function boundedServer(maxToolInputElements?: number) {
  const ran: string[] = [];
  const server = newServer(maxToolInputElements === undefined ? {} : { maxToolInputElements })
    .tool('library_sum', { input: { values: z.array(z.unknown()) } }, ({ values }) => {
      ran.push('library_sum');
      return `${values.length}`;
    })
    .setup((mcp) => {
      mcp.registerTool('raw_sum', { inputSchema: z.object({ values: z.array(z.unknown()) }) }, ({ values }) => {
        ran.push('raw_sum');
        return { content: [{ type: 'text', text: `${values.length}` }] };
      });
    });
  return { server, ran };
}

/** `{ values: [...] }` with `width` numbers: `width + 1` elements (the `values` member counts). */
const wide = (width: number) => ({ values: Array.from({ length: width }, (_, index) => index) });

/** `{ values: [[[…]]] }` nested `depth` arrays deep: `depth` elements. */
function deep(depth: number): { values: unknown[] } {
  let node: unknown[] = [];
  for (let level = 1; level < depth; level++) node = [node];
  return { values: node };
}

describe('maxToolInputElements', () => {
  it.each(ERAS)(
    '%s: a library tool refuses a wide or deep input exactly as the SDK refuses it for its own tools',
    async (era) => {
      const { server, ran } = boundedServer(50);
      const connection = await connect(server, { era });
      for (const input of [wide(50), deep(51)]) {
        const [raw, library] = await Promise.all(
          ['raw_sum', 'library_sum'].map((name) => call(connection, name, input)),
        );
        expect(raw?.isError).toBe(true);
        expect(library?.isError).toBe(true);
        expect(textOf(library!)).toBe(textOf(raw!).replace('raw_sum', 'library_sum'));
        expect(textOf(library!)).toMatch(
          /Invalid arguments for tool library_sum: arguments contain more than the maximum of 50 elements/,
        );
      }
      expect(ran).toEqual([]);
      // At the bound, both run.
      expect(textOf(await call(connection, 'library_sum', wide(49)))).toBe('49');
      expect(textOf(await call(connection, 'raw_sum', wide(49)))).toBe('49');
    },
  );

  it('is 10,000 by default, for both kinds of tool', async () => {
    const { server } = boundedServer();
    const connection = await connect(server, { era: 'modern' });
    expect(textOf(await call(connection, 'library_sum', wide(9_999)))).toBe('9999');
    for (const name of ['library_sum', 'raw_sum']) {
      const refused = await call(connection, name, wide(10_000));
      expect(textOf(refused)).toMatch(/arguments contain more than the maximum of 10000 elements/);
    }
  });

  it('Infinity lifts the bound', async () => {
    const { server } = boundedServer(Number.POSITIVE_INFINITY);
    const connection = await connect(server, { era: 'modern' });
    expect(textOf(await call(connection, 'library_sum', wide(20_000)))).toBe('20000');
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses %s at construction, naming the option', (value) => {
    expect(() => newServer({ maxToolInputElements: value })).toThrow(McpResolveError);
    expect(() => newServer({ maxToolInputElements: value })).toThrow(
      `new McpResolveServer(): maxToolInputElements must be a positive integer number of elements, or Infinity (got ${String(value)}).`,
    );
  });
});
