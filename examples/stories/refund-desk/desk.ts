/**
 * The refund desk: `refund_order(order_id, reason)` refunds what the order record says. The amount
 * is computed by resolvers and never appears in the input schema, so the model cannot supply or
 * inflate it. Resolvers form a graph (loadOrder → refundScope → refundAmount / askRestock), may ask
 * the human, and ask each question at most once per call.
 */
import { z } from 'zod';

import type { McpResolveServerOptions } from 'mcp-resolve';
import { elicit, McpResolveServer, outcome, resolver, ToolError } from 'mcp-resolve';

/** One line of an order. */
export interface OrderLine {
  readonly sku: string;
  readonly cents: number;
  readonly physical: boolean;
}

/** An order record. */
export interface Order {
  readonly id: string;
  readonly lines: readonly OrderLine[];
}

/** The desk's order records (the benchmarks' hand-written desk reads the same ones). */
export const ORDERS: ReadonlyMap<string, Order> = new Map([
  ['ORD-7001', { id: 'ORD-7001', lines: [{ sku: 'ebook-fieldnotes', cents: 1500, physical: false }] }],
  [
    'ORD-7002',
    {
      id: 'ORD-7002',
      lines: [
        { sku: 'enamel-mug', cents: 1800, physical: true },
        { sku: 'canvas-tote', cents: 2400, physical: true },
        { sku: 'sticker-pack', cents: 600, physical: false },
      ],
    },
  ],
]);

/** What the human is asked when an order has several lines. */
export const Scope = z.object({ full: z.boolean(), sku: z.string().optional() });
/** What the human is asked when physical items are refunded. */
export const RestockChoice = z.object({ restock: z.boolean() });
/** The tool's structured result. */
export const Receipt = z.object({
  order_id: z.string(),
  refunded_cents: z.number().int(),
  restocked: z.boolean(),
  reason: z.string(),
});

type Scope = z.output<typeof Scope>;

const skus = (lines: readonly OrderLine[]) => lines.map((line) => line.sku).join(', ');

/** The lines a scope covers. The SKU was typed by a human: check it against the order before use. */
function scoped(order: Order, scope: Scope): readonly OrderLine[] {
  if (scope.full) return order.lines;
  const line = order.lines.find((candidate) => candidate.sku === scope.sku);
  if (!line) throw new ToolError(`order has no item '${scope.sku ?? ''}'`);
  return [line];
}

const loadOrder = resolver({ name: 'order', args: { order_id: z.string() } }, ({ order_id }) => {
  const order = ORDERS.get(order_id);
  if (!order) throw new ToolError(`unknown order '${order_id}'`);
  return order;
});

const refundScope = resolver(
  { name: 'scope', args: { order_id: z.string() }, deps: { order: loadOrder } },
  ({ order_id, order }) =>
    order.lines.length === 1
      ? { full: true }
      : elicit(`${order_id} has several items (${skus(order.lines)}). Refund the whole order, or one SKU?`, Scope),
);

const refundAmount = resolver({ name: 'cents', deps: { order: loadOrder, scope: refundScope } }, ({ order, scope }) =>
  scoped(order, scope).reduce((sum, line) => sum + line.cents, 0),
);

const askRestock = resolver({ name: 'restock', deps: { order: loadOrder, scope: refundScope } }, ({ order, scope }) => {
  const physical = scoped(order, scope).filter((line) => line.physical);
  return physical.length === 0
    ? { restock: false }
    : elicit(`The refund includes physical items (${skus(physical)}). Return them to stock?`, RestockChoice);
});

/** Builds the refund desk server (one definition; hosting makes instances per connection or request). */
export function createRefundDesk(options?: McpResolveServerOptions): McpResolveServer {
  return new McpResolveServer({ name: 'refund-desk', version: '1.0.0' }, options).tool(
    'refund_order',
    {
      description: 'Refund an order. The amount comes from the order record, not from the caller.',
      input: { order_id: z.string(), reason: z.string() },
      resolve: { cents: refundAmount, restock: outcome(askRestock) },
      output: Receipt,
    },
    ({ order_id, reason, cents, restock }) => ({
      order_id,
      refunded_cents: cents,
      restocked: restock.action === 'accept' && restock.value.restock,
      reason,
    }),
  );
}
