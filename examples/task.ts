/**
 * A task (the Tasks extension). A tool that waits for a person — an approval may take hours —
 * declares `task: 'optional'`: on 2026-07-28 the call returns a task at once, the task waits in
 * `input_required` with the question, and the client answers through `tasks/update` whenever the
 * person decides. On 2025-11-25 the same tool runs as an ordinary call with a pushed question.
 *
 *   npx tsx examples/task.ts    # serves over stdio; see examples/stories/expense-approval for a full client
 */
import { z } from 'zod';

import { elicit, McpResolveServer, outcome, resolver } from 'mcp-resolve';
import { serveStdio } from 'mcp-resolve/node';

// The question the task waits on. Titled, described, unticked: a reject is one click.
const askManager = resolver({ name: 'manager', args: { amount_cents: z.int() } }, ({ amount_cents }) =>
  elicit(
    `Approve a purchase of ${amount_cents} cents?`,
    z.object({
      approve: z
        .boolean()
        .meta({ title: 'Approve', description: 'Tick to approve; leave unticked to reject.', default: false }),
    }),
  ),
);

const server = new McpResolveServer(
  { name: 'purchasing', version: '1.0.0' },
  { tasks: { pollIntervalMs: 100 } }, // how often the client should poll tasks/get
).tool(
  'request_purchase',
  {
    input: { amount_cents: z.int().positive() },
    // outcome(): a declined question reaches the body (and the task completes) instead of failing it.
    resolve: { decision: outcome(askManager) },
    task: 'optional',
  },
  // ctx.mcpReq.signal aborts if the client cancels the task.
  ({ amount_cents, decision }) =>
    decision.action === 'accept' && decision.value.approve ? `ordered (${amount_cents} cents)` : 'not ordered',
);

serveStdio(server);
