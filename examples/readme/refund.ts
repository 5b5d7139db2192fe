/**
 * The README's example, kept compiling: `npm test` type-checks this file, so the snippet in
 * README.md cannot drift from the API. Run it with `npx tsx examples/readme/refund.ts` (stdio).
 */
import { z } from 'zod';

import { elicit, McpResolveServer, outcome, resolver, ToolError } from 'mcp-resolve';
import { serveStdio } from 'mcp-resolve/node';

const ORDERS = new Map([['ORD-1', { id: 'ORD-1', total: 1500 }]]);

const loadOrder = resolver({ args: { order_id: z.string() } }, ({ order_id }) => {
  const order = ORDERS.get(order_id);
  if (!order) throw new ToolError(`unknown order '${order_id}'`);
  return order;
});

const confirm = resolver({ deps: { order: loadOrder } }, ({ order }) =>
  elicit(`Refund ${order.total} cents for ${order.id}?`, z.object({ ok: z.boolean() })),
);

const desk = new McpResolveServer({ name: 'desk', version: '1.0.0' }).tool(
  'refund',
  {
    input: { order_id: z.string() }, // what the model sees
    resolve: { order: loadOrder, confirm: outcome(confirm) }, // what it never sees
  },
  (
    { order, confirm }, // types inferred from the resolvers
  ) => (confirm.action === 'accept' && confirm.value.ok ? `refunded ${order.total}` : 'not refunded'),
);

serveStdio(desk); // or serveHttp(desk, { port: 3000 }); on Workers, Deno, Bun: createDualEraHandler(desk).fetch
