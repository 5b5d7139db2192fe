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

/** The shape of a scope answer: the whole order, or the one SKU to refund. */
export const Scope = z.object({ full: z.boolean(), sku: z.string().optional() });

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function buildScopeForm(order: Order) {
  const [first, ...rest] = order.lines.map((line) =>
    z.literal(line.sku).meta({ title: `${line.sku} (${dollars(line.cents)})` }),
  );
  if (first === undefined) throw new ToolError(`order ${order.id} has no items`);
  return z.object({
    full: z.boolean().default(true).meta({
      title: 'Refund the whole order',
      description: 'Leave ticked to refund every item; untick to refund only the item picked below.',
    }),
    sku: z
      .union([first, ...rest])
      .optional()
      .meta({ title: 'Item to refund', description: 'Only used when the whole order is not refunded.' }),
  });
}

const scopeForms = new WeakMap<Order, ReturnType<typeof buildScopeForm>>();

/**
 * What the human is asked when an order has several lines: a titled, described form whose SKU is a
 * pick-list of the order's own items (a form client shows a select; the answer is still checked
 * against the list here, so a SKU typed by hand that is not on the order is refused). Built once
 * per order, so the question is identical every round.
 */
export function scopeForm(order: Order): ReturnType<typeof buildScopeForm> {
  let form = scopeForms.get(order);
  if (form === undefined) {
    form = buildScopeForm(order);
    scopeForms.set(order, form);
  }
  return form;
}

/** What the human is asked when physical items are refunded. */
export const RestockChoice = z.object({
  restock: z.boolean().default(false).meta({
    title: 'Return the items to stock',
    description: 'Tick only if the items came back unused and can be sold again; damaged items stay out of stock.',
  }),
});
/** The tool's structured result. */
export const Receipt = z.object({
  order_id: z.string(),
  refunded_cents: z.number().int(),
  restocked: z.boolean(),
  reason: z.string(),
});

type Scope = z.output<typeof Scope>;

const skus = (lines: readonly OrderLine[]) => lines.map((line) => line.sku).join(', ');

/** The lines a scope covers. The SKU comes from a person: check it against the order before use. */
function scoped(order: Order, scope: Scope): readonly OrderLine[] {
  if (scope.full) return order.lines;
  if (scope.sku === undefined)
    throw new ToolError('no item picked: pick the item to refund, or refund the whole order');
  const line = order.lines.find((candidate) => candidate.sku === scope.sku);
  if (!line) throw new ToolError(`order has no item '${scope.sku ?? ''}'`);
  return [line];
}

/** Why a partial refund that names no item is asked again. */
const NO_ITEM = "Pick the item to refund, or tick 'Refund the whole order'.";

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
      : elicit(
          `${order_id} has several items (${skus(order.lines)}). Refund the whole order, or one item?`,
          scopeForm(order),
          // The form cannot say "an item is required unless the whole order is refunded"; the desk
          // checks it and asks again, showing this reason (at most 3 times in all, the default).
          { check: (scope) => (scope.full || scope.sku !== undefined ? undefined : NO_ITEM) },
        ),
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

/**
 * Builds the refund desk server (one definition; hosting makes instances per connection or request).
 * `options` carries what differs per host, e.g. sealing keys read from a Worker's secrets.
 */
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
