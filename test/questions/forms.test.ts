/** Forms that guide: zod titles, descriptions and defaults reach the requested schema faithfully, on both eras. */
import type { ElicitRequest } from '@modelcontextprotocol/client';
import { fromJsonSchema } from '@modelcontextprotocol/server';
import { elicit, resolver } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { call, connect, ERAS, newServer, textOf } from '../resolvers/helpers.js';

type Params = ElicitRequest['params'];

/** A server whose one tool asks `schema` and returns the accepted value as JSON. */
function askingServer(schema: Parameters<typeof elicit>[1]) {
  const ask = resolver({ name: 'form' }, () => elicit('Fill in the form.', schema));
  return newServer().tool('ask', { resolve: { value: ask } }, ({ value }) => JSON.stringify(value));
}

function requestedSchemaOf(params: Params | undefined): unknown {
  return params !== undefined && 'requestedSchema' in params ? params.requestedSchema : undefined;
}

const Guided = z.object({
  full: z.boolean().default(true).meta({ title: 'Whole order', description: 'Untick to refund one item.' }),
  count: z.int().min(1).max(9).default(1).describe('How many to refund.'),
  note: z.string().max(200).meta({ title: 'Note', description: 'Shown on the receipt.' }),
});

const Fruit = z.object({
  fruit: z
    .union([z.literal('a').meta({ title: 'Apple (1.00)' }), z.literal('b').meta({ title: 'Banana (0.50)' })])
    .meta({ title: 'Fruit', description: 'Pick one.' }),
  extras: z.array(z.union([z.literal('x').meta({ title: 'Extra X' }), z.literal('y')])).optional(),
});

describe.each(ERAS)('forms that guide (%s)', (era) => {
  it('carries titles, descriptions and defaults into the requested schema; defaults fill omitted fields', async () => {
    let seen: Params | undefined;
    const connection = await connect(askingServer(Guided), {
      era,
      elicit: (params) => {
        seen = params;
        return { action: 'accept', content: { note: 'thanks' } };
      },
    });
    const result = await call(connection, 'ask');
    expect(requestedSchemaOf(seen)).toMatchObject({
      type: 'object',
      properties: {
        full: { type: 'boolean', title: 'Whole order', description: 'Untick to refund one item.', default: true },
        count: { type: 'integer', minimum: 1, maximum: 9, default: 1, description: 'How many to refund.' },
        note: { type: 'string', maxLength: 200, title: 'Note', description: 'Shown on the receipt.' },
      },
      required: ['note'],
    });
    expect(JSON.parse(textOf(result))).toEqual({ full: true, count: 1, note: 'thanks' });
  });

  it('renders a zod union of titled literals as a SEP-1330 titled enum, and validates the answer with it', async () => {
    let seen: Params | undefined;
    let answer: Record<string, string | string[]> = { fruit: 'b', extras: ['x'] };
    const connection = await connect(askingServer(Fruit), {
      era,
      elicit: (params) => {
        seen = params;
        return { action: 'accept', content: answer };
      },
    });
    const result = await call(connection, 'ask');
    expect(requestedSchemaOf(seen)).toEqual({
      type: 'object',
      properties: {
        fruit: {
          type: 'string',
          title: 'Fruit',
          description: 'Pick one.',
          oneOf: [
            { const: 'a', title: 'Apple (1.00)' },
            { const: 'b', title: 'Banana (0.50)' },
          ],
        },
        extras: {
          type: 'array',
          items: {
            anyOf: [
              { const: 'x', title: 'Extra X' },
              { const: 'y', title: 'y' },
            ],
          },
        },
      },
      required: ['fruit'],
    });
    expect(JSON.parse(textOf(result))).toEqual({ fruit: 'b', extras: ['x'] });

    answer = { fruit: 'cherry' };
    const refused = await call(connection, 'ask');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("Resolver 'form': the answer does not match the requested schema.");
  });

  it('passes a hand-written SEP-1330 schema (fromJsonSchema) through unchanged', async () => {
    const json = {
      type: 'object',
      properties: {
        color: {
          type: 'string',
          title: 'Colour',
          description: 'Of the replacement.',
          default: 'r',
          oneOf: [
            { const: 'r', title: 'Red' },
            { const: 'g', title: 'Green' },
          ],
        },
      },
      required: ['color'],
    } as const;
    let seen: Params | undefined;
    const connection = await connect(askingServer(fromJsonSchema<{ color: string }>(json)), {
      era,
      elicit: (params) => {
        seen = params;
        return { action: 'accept', content: { color: 'g' } };
      },
    });
    const result = await call(connection, 'ask');
    expect(requestedSchemaOf(seen)).toEqual(json);
    expect(JSON.parse(textOf(result))).toEqual({ color: 'g' });
  });
});
