/** resolvers.md §2 [A]: resolved parameters are invisible to the model, and cannot be supplied by it. */
import { elicit, outcome, resolver } from 'mcp-resolve';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { call, connect, ERAS, newServer, textOf } from '../resolvers/helpers.js';

const Confirm = z.object({ confirm: z.boolean() });

function pricingServer() {
  const price = resolver({ name: 'price', args: { sku: z.string() } }, ({ sku }) => (sku === 'mug' ? 1800 : 0));
  const confirm = resolver({ name: 'confirm', args: { sku: z.string() } }, ({ sku }) => elicit(`Buy ${sku}?`, Confirm));
  return newServer().tool(
    'buy',
    {
      input: { sku: z.string(), note: z.string().optional() },
      resolve: { cents: price, ok: outcome(confirm) },
    },
    ({ sku, cents, ok }) => JSON.stringify({ sku, cents, ok: ok.action === 'accept' && ok.value.confirm }),
  );
}

describe.each(ERAS)('schema (%s)', (era) => {
  it('[A1] resolved parameters never appear in the advertised inputSchema', async () => {
    const connection = await connect(pricingServer(), { era });
    const { tools } = await connection.client.listTools();
    expect(tools).toHaveLength(1);
    const schema = tools[0]?.inputSchema;
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(['note', 'sku']);
    expect(schema?.required ?? []).toEqual(['sku']);
    expect(JSON.stringify(schema)).not.toMatch(/cents|"ok"|price|confirm/);
  });

  it('[A2] a value the client sends under a resolved parameter name is ignored', async () => {
    const connection = await connect(pricingServer(), {
      era,
      elicit: () => ({ action: 'accept', content: { confirm: true } }),
    });
    const result = await call(connection, 'buy', {
      sku: 'mug',
      cents: 1,
      ok: { action: 'accept', value: { confirm: false } },
    });
    expect(result.isError).not.toBe(true);
    expect(JSON.parse(textOf(result))).toEqual({ sku: 'mug', cents: 1800, ok: true });
    expect(connection.counters.questions).toEqual({ 'elicitation/create': 1 });
  });

  it('[A2] an injected value is ignored even when the input schema passes unknown keys through', async () => {
    const price = resolver({ name: 'price' }, () => 1800);
    const server = newServer().tool(
      'buy',
      { input: z.looseObject({ sku: z.string() }), resolve: { cents: price } },
      ({ cents }) => `charged ${cents}`,
    );
    const connection = await connect(server, { era });
    const result = await call(connection, 'buy', { sku: 'mug', cents: 1 });
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe('charged 1800');
  });
});
