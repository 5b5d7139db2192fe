/** A refund desk with the `apps` option, and the clients the app channels tell apart. */
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { elicit, resolver } from 'mcp-resolve';
import type { McpResolveServerOptions } from 'mcp-resolve';
import { z } from 'zod';

import { newServer } from '../resolvers/helpers.js';
import { APP_MIME_TYPE, UI_EXTENSION } from '../../src/apps/wire.js';

/** The refund question: an amount (1 to 500) and a reason. */
export const Refund = z.object({
  amount: z.number().int().min(1).max(500).meta({ title: 'Amount' }),
  reason: z.string().meta({ title: 'Reason' }),
});

/** Why the desk's own check refuses a refund over 400 (the schema takes up to 500). */
export const OVER_400 = 'A refund over 400 needs a manager: enter at most 400.';

/** A desk whose `refund` tool asks the refund question (its check refuses over 400); `runs` counts its body. */
export function refundDesk(options: McpResolveServerOptions = { apps: {} }) {
  const runs = { body: 0 };
  const refund = resolver({ name: 'refund', args: { order_id: z.string() } }, ({ order_id }) =>
    elicit(`Refund order ${order_id}?`, Refund, { check: ({ amount }) => (amount > 400 ? OVER_400 : undefined) }),
  );
  const server = newServer(options)
    .tool('refund', { input: { order_id: z.string() }, resolve: { refund } }, ({ refund: answer }) => {
      runs.body++;
      return `refunded ${answer.amount} for ${answer.reason}`;
    })
    .tool('ping', {}, () => 'pong');
  return { server, runs };
}

/** A client that renders apps and shows no forms (claude.ai, the Claude desktop app). */
export const APPS_ONLY: ClientCapabilities = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };

/** A client that renders form questions as apps (SEP-3118: the MCP Inspector). */
export const SEP_3118: ClientCapabilities = {
  elicitation: { form: {} },
  extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE], elicitation: {} } },
};

/** A client that shows forms and apps but did not negotiate app-rendered forms. */
export const FORMS_AND_APPS: ClientCapabilities = {
  elicitation: { form: {} },
  extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } },
};

/** The body of a form submission, as the app sends it. */
export function submission(fields: Record<string, string>, action = 'accept'): string {
  return new URLSearchParams({
    action,
    ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [`field.${k}`, v])),
  }).toString();
}
