/**
 * The expense desk: one tool, `submit_expense`, that files an expense once the people it needs
 * have approved it. Approval can take hours, so the tool runs as a task (the Tasks extension):
 * the call returns a task at once, the task waits in `input_required` with the approvers'
 * questions, and the client answers them through `tasks/update` whenever the people do.
 *
 * - up to $100: approved by policy, nobody is asked;
 * - over $100: the manager is asked;
 * - over $1,000: the manager and finance are asked, both at once (independent questions).
 *
 * On 2025-11-25, where there are no tasks, the same tool runs as an ordinary call and the
 * questions are pushed to the client while the call waits.
 */
import { setTimeout as delay } from 'node:timers/promises';

import { z } from 'zod';

import { elicit, McpResolveServer, outcome, resolver } from 'mcp-resolve';

const Expense = { employee: z.string(), amount_cents: z.number().int().positive(), description: z.string() };

/**
 * An approver's form. Every field is titled and described so a person knows what they decide;
 * `approve` is required and starts unticked, so a reject is one click (Submit as shown). Declining
 * the question rejects too, and the task still completes: only cancelling the task stops filing.
 */
const Decision = z.object({
  approve: z.boolean().meta({
    title: 'Approve this expense',
    description: 'Tick to approve; submit unticked (or decline) to reject.',
    default: false,
  }),
  note: z.string().optional().meta({ title: 'Note', description: 'Optional: a word for the employee, e.g. why.' }),
});

/** Who has to approve an expense of this amount. */
const policy = resolver({ name: 'policy', args: { amount_cents: z.number() } }, ({ amount_cents }) => ({
  manager: amount_cents > 100_00,
  finance: amount_cents > 1_000_00,
}));

function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** The manager's decision, asked only when the policy needs it. */
const manager = resolver(
  { name: 'manager', args: Expense, deps: { needs: policy } },
  ({ employee, amount_cents, description, needs }) =>
    needs.manager
      ? elicit(`Manager: approve ${employee}'s expense of ${dollars(amount_cents)} for "${description}"?`, Decision)
      : { approve: true, note: 'within policy' },
);

/** Finance's decision, asked only for large amounts, independently of the manager's. */
const finance = resolver(
  { name: 'finance', args: Expense, deps: { needs: policy } },
  ({ employee, amount_cents, needs }) =>
    needs.finance
      ? elicit(`Finance: release ${dollars(amount_cents)} for ${employee}?`, Decision)
      : { approve: true, note: 'below the finance threshold' },
);

const Filed = z.object({
  expense_id: z.string(),
  status: z.enum(['approved', 'rejected']),
  amount_cents: z.number(),
  notes: z.array(z.string()),
});

/** What the desk recorded, so the story can check that every body ran once. */
export interface Ledger {
  readonly filed: string[];
}

/** Builds the expense desk; `filingMs` is how long filing takes once approved. */
export function createExpenseDesk(ledger: Ledger = { filed: [] }, filingMs = 50): McpResolveServer {
  let next = 1;
  return new McpResolveServer({ name: 'expense-desk', version: '1.0.0' }, { tasks: { pollIntervalMs: 100 } }).tool(
    'submit_expense',
    {
      description: 'Files an expense once the people it needs have approved it (runs as a task).',
      input: Expense,
      resolve: { managerDecision: outcome(manager), financeDecision: outcome(finance) },
      output: Filed,
      task: 'optional',
    },
    async ({ employee, amount_cents, managerDecision, financeDecision }, ctx) => {
      const decisions = { manager: managerDecision, finance: financeDecision };
      const approved = Object.values(decisions).every((d) => d.action === 'accept' && d.value.approve);
      // A declined question is a "no" that the filed expense says out loud.
      const notes = Object.entries(decisions).flatMap(([who, d]) =>
        d.action !== 'accept' ? [`${who} ${d.action}d`] : d.value.note ? [d.value.note] : [],
      );
      await delay(filingMs, undefined, { signal: ctx.mcpReq.signal });
      const expense_id = `EXP-${String(next++).padStart(4, '0')}`;
      ledger.filed.push(`${expense_id} ${employee}`);
      return { expense_id, status: approved ? 'approved' : 'rejected', amount_cents, notes };
    },
  );
}
