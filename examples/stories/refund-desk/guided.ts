/**
 * The guided refund desk: the same desk and graph as desk.ts, with a scope question that guides a
 * person instead of taking free text. The SKU is a pick-list of the order's own items, and an
 * answer that is off the list, or a partial refund that names no item, is asked again with the
 * reason shown (at most 3 times) instead of failing the call. Served by `server.ts --guided`.
 */
import { z } from 'zod';

import type { McpResolveServer, McpResolveServerOptions } from 'mcp-resolve';
import { elicit, ToolError } from 'mcp-resolve';

import type { Order, ScopeQuestion } from './desk.js';
import { buildRefundDesk, perOrder, skus } from './desk.js';

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * The guided scope form: titled and described like the seed's, but the SKU is a SEP-1330 titled
 * enum of the order's items, labelled with prices (a form client shows a select). The answer is
 * still validated against the list here, so a SKU typed by hand that is not on the order is refused.
 */
export const guidedScopeForm = perOrder((order: Order) => {
  const [first, ...rest] = order.lines.map((line) =>
    z.literal(line.sku).meta({ title: `${line.sku} (${dollars(line.cents)})` }),
  );
  if (first === undefined) throw new ToolError(`order ${order.id} has no items`);
  return z.object({
    full: z.boolean().meta({
      title: 'Refund the whole order',
      description: 'Tick to refund every item; leave unticked to refund only the item picked below.',
      default: false,
    }),
    sku: z
      .union([first, ...rest])
      .optional()
      .meta({ title: 'Item to refund', description: 'Only used when the whole order is not refunded.' }),
  });
});

/** Why a partial refund that names no item is asked again. */
const NO_ITEM = "Pick the item to refund, or tick 'Refund the whole order'.";

const askGuidedScope: ScopeQuestion = (order) =>
  elicit(
    `${order.id} has several items (${skus(order.lines)}). Refund the whole order, or one item?`,
    guidedScopeForm(order),
    // The form cannot say "an item is required unless the whole order is refunded"; the desk
    // checks it and asks again, showing this reason (at most 3 times in all, the default).
    { check: (scope) => (scope.full || scope.sku !== undefined ? undefined : NO_ITEM) },
  );

/** Builds the guided refund desk (a pick-list SKU, asked again on a bad answer). */
export function createGuidedRefundDesk(options?: McpResolveServerOptions): McpResolveServer {
  return buildRefundDesk(askGuidedScope, options);
}
