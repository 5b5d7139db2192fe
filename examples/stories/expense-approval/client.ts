/**
 * A SELF-CHECKING CLIENT (test harness, not an example to copy): it plays the person from a script
 * and checks every result against the story's table; `test/stories/` runs it. Learn the library
 * from the server files; a real client is any MCP client (the SDK's `Client`, the MCP Inspector).
 *
 * The expense desk client: submits expenses, and on 2026-07-28 follows each one as a task —
 * polls `tasks/get` at the interval the server suggests, shows the approvers' questions when the
 * task waits for input, answers them through `tasks/update` as the people decide (one approver
 * at a time), and reads the filed expense from the completed task. On 2025-11-25 the same
 * answers are given to the pushed questions while the call waits. Every step is checked.
 *
 *   npx tsx examples/stories/expense-approval/client.ts             # spawns the server over stdio
 *   npx tsx examples/stories/expense-approval/client.ts --http      # starts the server on a free port
 *   npx tsx examples/stories/expense-approval/client.ts --http URL  # uses a server someone started
 *   add --legacy to speak 2025-11-25 (pushed questions, no tasks)
 */
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';

import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { TASKS_EXTENSION } from 'mcp-resolve/contracts';
import type { DetailedTask } from 'mcp-resolve/client';
import type { Era } from 'mcp-resolve';
import type { TestConnection } from 'mcp-resolve/testing';
import { cancelTask, getTask, taskOf, updateTask } from 'mcp-resolve/client';

import type { StoryTransport } from '../lib/serverProcess.js';
import { connectStory } from '../lib/serverProcess.js';
import type { StoryReport } from '../lib/tally.js';
import { createTally } from '../lib/tally.js';

/** How one run of the story is set up. */
export interface StoryRun {
  readonly transport: StoryTransport;
  readonly era: Era;
  /** An already running server (HTTP only); otherwise the run starts its own. */
  readonly url?: URL;
  /** Where the conversation is printed. @default console.log */
  readonly log?: (line: string) => void;
}

/** What a run proved. */
export type { StoryReport };

type Approver = 'manager' | 'finance';

interface Submission {
  readonly employee: string;
  readonly amount_cents: number;
  readonly description: string;
  /** Each approver's answer, in the order the people decide. */
  readonly decisions: ReadonlyArray<readonly [Approver, ElicitResult]>;
  /** Cancel the task once it waits for input, instead of answering. */
  readonly cancel?: boolean;
  readonly expect: { readonly status: 'approved' | 'rejected'; readonly notes: string[] } | 'cancelled';
}

const yes = (note?: string): ElicitResult => ({
  action: 'accept',
  content: note === undefined ? { approve: true } : { approve: true, note },
});
const no = (note: string): ElicitResult => ({ action: 'accept', content: { approve: false, note } });

const SUBMISSIONS: readonly Submission[] = [
  {
    employee: 'Ada',
    amount_cents: 42_50,
    description: 'team lunch',
    decisions: [],
    expect: { status: 'approved', notes: ['within policy', 'below the finance threshold'] },
  },
  {
    employee: 'Grace',
    amount_cents: 350_00,
    description: 'conference ticket',
    decisions: [['manager', yes('good conference')]],
    expect: { status: 'approved', notes: ['good conference', 'below the finance threshold'] },
  },
  {
    employee: 'Linus',
    amount_cents: 899_00,
    description: 'standing desk',
    decisions: [['manager', no('use the office desk')]],
    expect: { status: 'rejected', notes: ['use the office desk', 'below the finance threshold'] },
  },
  {
    employee: 'Barbara',
    amount_cents: 2_400_00,
    description: 'GPU workstation',
    decisions: [
      ['finance', yes('budgeted')],
      ['manager', yes()],
    ],
    expect: { status: 'approved', notes: ['budgeted'] },
  },
  {
    // The manager declines the question (the dialog's Decline, not the task's Cancel): the task
    // still completes, and the expense is filed as rejected, saying so.
    employee: 'Margaret',
    amount_cents: 640_00,
    description: 'client dinner',
    decisions: [['manager', { action: 'decline' }]],
    expect: { status: 'rejected', notes: ['manager declined', 'below the finance threshold'] },
  },
  {
    employee: 'Ken',
    amount_cents: 5_000_00,
    description: 'offsite',
    decisions: [],
    cancel: true,
    expect: 'cancelled',
  },
];

/** What a filed expense looks like (the tool's structured output). */
const Filed = z.object({
  expense_id: z.string(),
  status: z.enum(['approved', 'rejected']),
  amount_cents: z.number(),
  notes: z.array(z.string()),
});

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const PROTOCOL: Record<Era, string> = { modern: '2026-07-28', legacy: '2025-11-25' };
const TASK_CLIENT = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };

function approverOf(message: string): Approver {
  return message.startsWith('Finance') ? 'finance' : 'manager';
}

/**
 * Whether an approver's form guides a person: every field titled and described, and `approve`
 * required and unticked by default (a reject is one click).
 */
function guides(form: unknown): boolean {
  const { properties = {}, required = [] } = (form ?? {}) as {
    properties?: Record<string, { title?: unknown; description?: unknown; default?: unknown }>;
    required?: unknown[];
  };
  const fields = Object.values(properties);
  return (
    fields.length === 2 &&
    fields.every((field) => typeof field.title === 'string' && typeof field.description === 'string') &&
    properties.approve?.default === false &&
    required.includes('approve')
  );
}

/** Runs every submission of the story once and reports what passed. */
export async function runExpenseApproval(run: StoryRun): Promise<StoryReport> {
  const log = run.log ?? ((line: string) => console.log(line));
  const tally = createTally(log);
  const { check } = tally;

  // 2025-11-25: the questions are pushed while the call waits; answer them from the current script.
  let script: Submission['decisions'] = [];
  let pushed: Approver[] = [];
  /** The first approver's form seen in the run, checked once at the end. */
  let form: unknown;
  const elicit = (params: ElicitRequest['params']): ElicitResult => {
    if ('requestedSchema' in params) form ??= params.requestedSchema;
    const who = approverOf(params.message);
    pushed.push(who);
    log(`    pushed question: ${params.message}`);
    return script.find(([approver]) => approver === who)?.[1] ?? { action: 'cancel' };
  };

  /** Follows a task to its end, answering each approver's question when that person decides. */
  const follow = async (connection: TestConnection, submission: Submission, taskId: string): Promise<DetailedTask> => {
    const { client } = connection;
    const waiting = [...submission.decisions];
    const seenKeys = new Set<string>();
    for (;;) {
      const task = await getTask(client, taskId);
      if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') return task;
      if (task.status === 'input_required') {
        const questions = Object.entries(task.inputRequests ?? {});
        for (const [key, request] of questions) {
          if (seenKeys.has(key)) continue;
          seenKeys.add(key);
          const message = request.method === 'elicitation/create' ? request.params.message : request.method;
          if (request.method === 'elicitation/create' && 'requestedSchema' in request.params)
            form ??= request.params.requestedSchema;
          log(`    task ${task.status}: [${key.slice(0, 10)}…] ${message}`);
        }
        if (submission.cancel === true) {
          check(questions.length === 2, `two questions wait at once (saw ${questions.length})`);
          await cancelTask(client, taskId);
          log('    cancelled the task');
          continue;
        }
        // The next person decides; only their question is answered (the rest stay pending).
        const next = waiting.shift();
        const match = questions.find(
          ([, request]) => request.method === 'elicitation/create' && approverOf(request.params.message) === next?.[0],
        );
        if (next === undefined || match === undefined)
          throw new Error(`no scripted answer for ${JSON.stringify(questions)}`);
        await updateTask(client, taskId, { [match[0]]: next[1] });
        log(`    ${next[0]} answered: ${JSON.stringify(next[1])}`);
        if (waiting.length > 0) {
          const after = await getTask(client, taskId);
          check(
            after.status === 'input_required' && !(match[0] in (after.inputRequests ?? {})),
            'after a partial answer the task still waits, without the answered question',
          );
        }
        continue;
      }
      await delay(task.pollIntervalMs ?? 100);
    }
  };

  const connection = await connectStory(SERVER, 'expense-desk', run.transport, {
    era: run.era,
    capabilities: TASK_CLIENT,
    elicit,
    url: run.url,
  });
  try {
    const { client } = connection;

    for (const [index, submission] of SUBMISSIONS.entries()) {
      const { employee, amount_cents, description } = submission;
      log(`[${index + 1}] submit_expense ${employee} $${(amount_cents / 100).toFixed(2)} "${description}"`);
      if (run.era === 'legacy' && submission.cancel === true) {
        log('    (skipped on 2025-11-25: there is no task to cancel)');
        continue;
      }
      script = submission.decisions;
      pushed = [];
      const returned = await client.callTool({
        name: 'submit_expense',
        arguments: { employee, amount_cents, description },
      });
      let result: CallToolResult | undefined;
      if (run.era === 'modern') {
        const handle = taskOf(returned);
        check(
          handle !== undefined,
          `the call returned a task (${handle?.taskId.slice(0, 8) ?? 'none'}…, ${handle?.status ?? '-'})`,
        );
        if (handle === undefined) continue;
        const task = await follow(connection, submission, handle.taskId);
        log(`    task ${task.status}`);
        if (submission.expect === 'cancelled') {
          check(task.status === 'cancelled' && task.result === undefined, 'the task ended cancelled, with no result');
          continue;
        }
        check(task.status === 'completed', `the task completed (saw ${task.status})`);
        result = task.result;
      } else {
        check(taskOf(returned) === undefined, 'the call answered directly (no tasks on 2025-11-25)');
        check(
          isDeepStrictEqual([...pushed].sort(), submission.decisions.map(([who]) => who).sort()),
          `pushed questions: ${submission.decisions.map(([who]) => who).join(', ') || 'none'}`,
        );
        result = returned;
      }
      log(`    filed: ${JSON.stringify(result?.structuredContent)}`);
      const filed = Filed.safeParse(result?.structuredContent).data;
      if (submission.expect !== 'cancelled') {
        const { status, notes } = submission.expect;
        check(
          result?.isError !== true &&
            filed !== undefined &&
            filed.status === status &&
            filed.amount_cents === amount_cents &&
            isDeepStrictEqual(filed.notes, notes),
          `filed as ${status} with notes ${JSON.stringify(notes)}`,
        );
      }
    }
    check(guides(form), 'the approver form guides: titled, described fields; `approve` required, unticked');
  } catch (error) {
    tally.fail(error);
  } finally {
    await connection.close();
  }
  return tally.report(`expense-approval ${run.transport} ${PROTOCOL[run.era]}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    options: { http: { type: 'boolean', default: false }, legacy: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const url = positionals[0];
  const report = await runExpenseApproval({
    transport: values.http ? 'http' : 'stdio',
    era: values.legacy ? 'legacy' : 'modern',
    ...(url !== undefined && { url: new URL(url) }),
  });
  process.exitCode = report.failed > 0 ? 1 : 0;
}
