/**
 * The refund desk: `refund_order(order_id, reason)` refunds what the order record says. The amount
 * is computed by resolvers and never appears in the input schema, so the model cannot supply or
 * inflate it. Resolvers form a graph (loadOrder → refundScope → refundAmount / askRestock), may ask
 * the human, and ask each question at most once per call.
 */
import { z } from 'zod';

import type { Elicit, McpResolveServerOptions } from 'mcp-resolve';
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

type Scope = z.output<typeof Scope>;

/** The SKUs of `lines`, as a question lists them. */
export const skus = (lines: readonly OrderLine[]): string => lines.map((line) => line.sku).join(', ');

/**
 * One value per order, built on first use, so a question asked again in a later round carries the
 * identical form.
 */
export function perOrder<T>(build: (order: Order) => T): (order: Order) => T {
  const built = new WeakMap<Order, T>();
  return (order) => {
    let value = built.get(order);
    if (value === undefined) {
      value = build(order);
      built.set(order, value);
    }
    return value;
  };
}

/**
 * What the human is asked when an order has several lines: a titled, described form. `full` is
 * required, as in the reference: an answer without it is refused, never read as a full refund. The
 * box starts unticked (a form's default is only what the client shows first). The SKU is free text
 * (the description lists the order's items); the desk checks it against the order before use.
 */
export const scopeForm = perOrder((order: Order) =>
  z.object({
    full: z.boolean().meta({
      title: 'Refund the whole order',
      description: 'Tick to refund every item; leave unticked to refund only the item named below.',
      default: false,
    }),
    sku: z
      .string()
      .optional()
      .meta({
        title: 'Item to refund (SKU)',
        description: `Only used when the whole order is not refunded. This order's items: ${skus(order.lines)}.`,
      }),
  }),
);

/** How a desk asks for the scope of a several-line order. */
export type ScopeQuestion = (order: Order) => Elicit<Scope>;

/** The seed's scope question: free-text SKU, checked by {@link scoped} when the amount is computed. */
const askScope: ScopeQuestion = (order) =>
  elicit(`${order.id} has several items (${skus(order.lines)}). Refund the whole order, or one SKU?`, scopeForm(order));

/**
 * What the human is asked when physical items are refunded. `restock` is required, as in the
 * reference; the box starts unticked.
 */
export const RestockChoice = z.object({
  restock: z.boolean().meta({
    title: 'Return the items to stock',
    description: 'Tick only if the items came back unused and can be sold again; damaged items stay out of stock.',
    default: false,
  }),
});
/** The tool's structured result. */
export const Receipt = z.object({
  order_id: z.string(),
  refunded_cents: z.number().int(),
  restocked: z.boolean(),
  reason: z.string(),
});

/** The lines a scope covers. The SKU comes from a person: check it against the order before use. */
function scoped(order: Order, scope: Scope): readonly OrderLine[] {
  if (scope.full) return order.lines;
  if (scope.sku === undefined)
    throw new ToolError('no item named: name the item to refund (its SKU), or refund the whole order');
  const line = order.lines.find((candidate) => candidate.sku === scope.sku);
  if (!line) throw new ToolError(`order has no item '${scope.sku}'`);
  return [line];
}

const loadOrder = resolver({ name: 'order', args: { order_id: z.string() } }, ({ order_id }) => {
  const order = ORDERS.get(order_id);
  if (!order) throw new ToolError(`unknown order '${order_id}'`);
  return order;
});

/**
 * Builds a refund desk server whose scope question is `ask` (one definition; hosting makes
 * instances per connection or request). The rest of the graph is the same for every variant.
 */
export function buildRefundDesk(ask: ScopeQuestion, options?: McpResolveServerOptions): McpResolveServer {
  const refundScope = resolver({ name: 'scope', deps: { order: loadOrder } }, ({ order }) =>
    order.lines.length === 1 ? { full: true } : ask(order),
  );
  const refundAmount = resolver({ name: 'cents', deps: { order: loadOrder, scope: refundScope } }, ({ order, scope }) =>
    scoped(order, scope).reduce((sum, line) => sum + line.cents, 0),
  );
  const askRestock = resolver(
    { name: 'restock', deps: { order: loadOrder, scope: refundScope } },
    ({ order, scope }) => {
      const physical = scoped(order, scope).filter((line) => line.physical);
      return physical.length === 0
        ? { restock: false }
        : elicit(`The refund includes physical items (${skus(physical)}). Return them to stock?`, RestockChoice);
    },
  );
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

/**
 * Builds the refund desk as the seed tells it: the SKU is free text, checked against the order.
 * `options` carries what differs per host, e.g. sealing keys read from a Worker's secrets.
 */
export function createRefundDesk(options?: McpResolveServerOptions): McpResolveServer {
  return buildRefundDesk(askScope, options);
}
