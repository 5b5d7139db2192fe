/**
 * A SELF-CHECKING CLIENT (test harness, not an example to copy): it plays the person from a script
 * and checks every result against the story's table; `test/stories/` runs it. Learn the library
 * from the server files; a real client is any MCP client (the SDK's `Client`, the MCP Inspector).
 *
 * The refund desk client: runs every call of the story against the server, answers the questions
 * from a script, and checks each result, question count and round trip against the contract.
 *
 *   npx tsx examples/stories/refund-desk/client.ts                 # spawns the server over stdio
 *   npx tsx examples/stories/refund-desk/client.ts --http          # starts the server on a free port
 *   npx tsx examples/stories/refund-desk/client.ts --http URL      # uses a server someone started
 *   add --legacy to speak 2025-11-25 (push elicitation) instead of 2026-07-28 (input_required rounds)
 *   add --guided for the guided desk (guided.ts: a SKU pick-list, re-asking) and its own table
 *   add --ask to answer the questions yourself at the terminal instead of from the script
 */
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';

import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { Era } from 'mcp-resolve';

import type { StoryTransport } from '../lib/serverProcess.js';
import { connectStory } from '../lib/serverProcess.js';
import type { StoryReport } from '../lib/tally.js';
import { createTally } from '../lib/tally.js';
import type { DeskVariant } from './variants.js';
import { SERVER_ARGS } from './variants.js';

/** The desk server's entry file. */
export const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

/** How one run of the story is set up. */
export interface StoryRun {
  readonly transport: StoryTransport;
  readonly era: Era;
  /** @default 'seed' */
  readonly variant?: DeskVariant;
  /** An already running server (HTTP only); otherwise the run starts its own. */
  readonly url?: URL;
  /** The fetch the HTTP client uses (e.g. one that records which fleet instance served each request). */
  readonly fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Where the conversation is printed. @default console.log */
  readonly log?: (line: string) => void;
  /** Extra arguments for a server the run starts (e.g. `--otel file:PATH`). */
  readonly serverArgs?: readonly string[];
}

/** What a run proved. */
export type { StoryReport };

type Topic = 'scope' | 'restock';

interface Call {
  readonly order_id: string;
  readonly reason: string;
  /** Each topic's answers, in the order the question is asked (a rejected answer is asked again). */
  readonly answers: Partial<Record<Topic, readonly ElicitResult[]>>;
  /** The reasons shown when a question is asked again, in order. */
  readonly reasons?: readonly string[];
  /** The structured result, or a text the error result must contain. */
  readonly expect: { readonly receipt: Record<string, unknown> } | { readonly errorContains: string };
  readonly legs: number;
  readonly pushes: number;
  readonly countsAfter: Readonly<Record<Topic, number>>;
}

const accept = (content: Record<string, string | number | boolean>): ElicitResult => ({ action: 'accept', content });
const DECLINE: ElicitResult = { action: 'decline' };

/** The reason the guided desk gives when a partial refund names no item. */
const REASON_NO_ITEM = "Pick the item to refund, or tick 'Refund the whole order'.";

/** Calls 1 to 3 of the contract's table, the same on both desks. */
const COMMON_CALLS: readonly Call[] = [
  {
    order_id: 'ORD-7001',
    reason: 'download corrupted',
    answers: {},
    expect: { receipt: { order_id: 'ORD-7001', refunded_cents: 1500, restocked: false, reason: 'download corrupted' } },
    legs: 1,
    pushes: 0,
    countsAfter: { scope: 0, restock: 0 },
  },
  {
    order_id: 'ORD-7002',
    reason: 'arrived broken',
    answers: { scope: [accept({ full: true })], restock: [accept({ restock: true })] },
    expect: { receipt: { order_id: 'ORD-7002', refunded_cents: 4800, restocked: true, reason: 'arrived broken' } },
    legs: 3,
    pushes: 2,
    countsAfter: { scope: 1, restock: 1 },
  },
  {
    order_id: 'ORD-7002',
    reason: 'wrong colour',
    answers: { scope: [accept({ full: false, sku: 'canvas-tote' })], restock: [DECLINE] },
    expect: { receipt: { order_id: 'ORD-7002', refunded_cents: 2400, restocked: false, reason: 'wrong colour' } },
    legs: 3,
    pushes: 2,
    countsAfter: { scope: 2, restock: 2 },
  },
];

/** The text a declined scope question fails with: the reference SDK's, verbatim (resolvers.md §7.1). */
const SCOPE_DECLINED = "Resolver for parameter 'scope' could not resolve: elicitation was decline";

/** The last two calls, after `scopeBefore` scope questions. */
const closingCalls = (scopeBefore: number): readonly Call[] => [
  {
    order_id: 'ORD-7002',
    reason: 'changed mind',
    answers: { scope: [DECLINE] },
    expect: { errorContains: SCOPE_DECLINED },
    legs: 2,
    pushes: 1,
    countsAfter: { scope: scopeBefore + 1, restock: 2 },
  },
  {
    order_id: 'ORD-9999',
    reason: 'typo',
    answers: {},
    expect: { errorContains: "unknown order 'ORD-9999'" },
    legs: 1,
    pushes: 0,
    countsAfter: { scope: scopeBefore + 1, restock: 2 },
  },
];

/** Each desk's table, one entry per call. The seed's is the contract's, unchanged. */
const CALLS: Record<DeskVariant, readonly Call[]> = {
  seed: [
    ...COMMON_CALLS,
    {
      order_id: 'ORD-7002',
      reason: 'lost parcel',
      answers: { scope: [accept({ full: false, sku: 'mystery-hat' })] },
      expect: { errorContains: "order has no item 'mystery-hat'" },
      legs: 2,
      pushes: 1,
      countsAfter: { scope: 3, restock: 2 },
    },
    ...closingCalls(3),
  ],
  guided: [
    ...COMMON_CALLS,
    {
      order_id: 'ORD-7002',
      reason: 'lost parcel',
      answers: {
        scope: [
          accept({ full: false }),
          accept({ full: false, sku: 'mystery-hat' }),
          accept({ full: false, sku: 'sticker-pack' }),
        ],
      },
      reasons: [REASON_NO_ITEM, 'The answer does not fit the form: check "Item to refund".'],
      expect: { receipt: { order_id: 'ORD-7002', refunded_cents: 600, restocked: false, reason: 'lost parcel' } },
      legs: 4,
      pushes: 3,
      countsAfter: { scope: 5, restock: 2 },
    },
    ...closingCalls(5),
  ],
};

const PROTOCOL: Record<Era, string> = { modern: '2026-07-28', legacy: '2025-11-25' };

/** How a run's closing line names the desk. */
const LABEL: Record<DeskVariant, string> = { seed: 'refund-desk', guided: 'refund-desk-guided' };

/** The scope question is the one whose form has a `full` field; every other question is about restocking. */
function topicOf(params: ElicitRequest['params']): Topic {
  return 'requestedSchema' in params && 'full' in params.requestedSchema.properties ? 'scope' : 'restock';
}

/** The SKUs of ORD-7002, which its scope form must name. */
const ORDER_7002_SKUS = ['enamel-mug', 'canvas-tote', 'sticker-pack'];

type Field = Record<string, unknown>;

/** A requested form's fields by name (none when it is not a form). */
function fieldsOf(form: unknown): Record<string, Field> {
  if (typeof form !== 'object' || form === null || !('properties' in form)) return {};
  return form.properties as Record<string, Field>;
}

/**
 * Whether a requested form guides a person: every field has a title and a description, and every
 * boolean has a default the client shows first and is required (as in the reference: an answer
 * that leaves it out is refused, never filled in by the desk).
 */
function guides(form: unknown): boolean {
  const fields = Object.entries(fieldsOf(form));
  const required = typeof form === 'object' && form !== null && 'required' in form ? form.required : [];
  return (
    fields.length > 0 &&
    fields.every(([, field]) => typeof field.title === 'string' && typeof field.description === 'string') &&
    fields.every(
      ([name, field]) =>
        field.type !== 'boolean' ||
        (typeof field.default === 'boolean' && Array.isArray(required) && required.includes(name)),
    )
  );
}

/** The values the form's `sku` field offers as a titled pick-list (none when it offers none). */
function offered(form: unknown): unknown[] {
  const options = fieldsOf(form).sku?.oneOf;
  return Array.isArray(options)
    ? (options as Array<{ const?: unknown; title?: unknown }>).map((option) =>
        typeof option.title === 'string' ? option.const : undefined,
      )
    : [];
}

/** Whether the form's `sku` field is free text (no list to pick from) whose description names each of `skus`. */
function freeText(form: unknown, skus: readonly string[]): boolean {
  const sku = fieldsOf(form).sku;
  return (
    sku !== undefined &&
    sku.type === 'string' &&
    !('enum' in sku) &&
    !('oneOf' in sku) &&
    typeof sku.description === 'string' &&
    skus.every((name) => (sku.description as string).includes(name))
  );
}

/** Runs every call of the story once and reports what passed. */
export async function runRefundDesk(run: StoryRun): Promise<StoryReport> {
  const log = run.log ?? ((line: string) => console.log(line));
  const variant = run.variant ?? 'seed';
  const counts: Record<Topic, number> = { scope: 0, restock: 0 };
  let script: Partial<Record<Topic, ElicitResult[]>> = {};
  const asked: string[] = [];
  const reasons: string[] = [];
  const forms: Partial<Record<Topic, unknown>> = {};
  const elicit = (params: ElicitRequest['params']): ElicitResult => {
    const topic = topicOf(params);
    counts[topic] += 1;
    if ('requestedSchema' in params) forms[topic] = params.requestedSchema;
    const answer = script[topic]?.shift() ?? { action: 'cancel' };
    const [reason, question] = params.message.split('\n\n');
    if (question !== undefined && reason !== undefined) reasons.push(reason);
    asked.push(
      `    asked ${topic}: ${params.message.replaceAll('\n\n', '\n      ')}`,
      `    answered: ${JSON.stringify(answer)}`,
    );
    return answer;
  };

  const tally = createTally(log);
  const { check } = tally;

  const connection = await connectStory(SERVER, 'refund-desk', run.transport, {
    era: run.era,
    elicit,
    url: run.url,
    serverArgs: [...SERVER_ARGS[variant], ...(run.serverArgs ?? [])],
    ...(run.fetch !== undefined && { transportOptions: { fetch: run.fetch } }),
  });
  try {
    const { client, counters } = connection;

    log('[0] tools/list');
    const { tools } = await client.listTools();
    const schema = tools[0]?.inputSchema;
    check(tools.length === 1 && tools[0]?.name === 'refund_order', 'one tool: refund_order');
    check(
      isDeepStrictEqual(Object.keys(schema?.properties ?? {}).sort(), ['order_id', 'reason']) &&
        isDeepStrictEqual([...(schema?.required ?? [])].sort(), ['order_id', 'reason']),
      'input schema properties and required are exactly {order_id, reason}',
    );

    for (const [index, call] of CALLS[variant].entries()) {
      log(`[${index + 1}] refund_order ${call.order_id} "${call.reason}"`);
      script = { scope: [...(call.answers.scope ?? [])], restock: [...(call.answers.restock ?? [])] };
      asked.length = 0;
      reasons.length = 0;
      counters.reset();
      const result = await client.callTool({
        name: 'refund_order',
        arguments: { order_id: call.order_id, reason: call.reason },
      });
      for (const line of asked) log(line);
      const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
      log(`    result: ${result.isError ? `error: ${text}` : JSON.stringify(result.structuredContent)}`);
      if ('receipt' in call.expect) {
        check(
          !result.isError && isDeepStrictEqual(result.structuredContent, call.expect.receipt),
          `receipt ${JSON.stringify(call.expect.receipt)}`,
        );
      } else {
        check(
          result.isError === true && text.includes(call.expect.errorContains),
          `error contains "${call.expect.errorContains}"`,
        );
      }
      const legs = counters.legs['tools/call'] ?? 0;
      if (run.era === 'modern') {
        check(
          legs === call.legs && counters.pushes === 0,
          `${call.legs} leg(s), no pushes (saw ${legs} leg(s), ${counters.pushes} push(es))`,
        );
      } else {
        check(
          legs === 1 && counters.pushes === call.pushes,
          `1 leg, ${call.pushes} push(es) (saw ${legs} leg(s), ${counters.pushes} push(es))`,
        );
      }
      if (call.reasons !== undefined) {
        check(
          isDeepStrictEqual(reasons, call.reasons),
          `asked again ${call.reasons.length} time(s), each time showing why (saw ${JSON.stringify(reasons)})`,
        );
      }
      if (index === 1) {
        if (variant === 'seed') {
          check(
            guides(forms.scope) && freeText(forms.scope, ORDER_7002_SKUS),
            "the scope form guides: titles, descriptions, defaults, `full` required; the SKU is free text, its description lists the order's items",
          );
        } else {
          check(
            guides(forms.scope) && isDeepStrictEqual(offered(forms.scope), ORDER_7002_SKUS),
            'the scope form guides: titles, descriptions, defaults, `full` required, a SKU list',
          );
        }
        check(guides(forms.restock), 'the restock form guides: title, description, a default, `restock` required');
      }
      check(
        isDeepStrictEqual(counts, call.countsAfter),
        `questions so far: scope ${call.countsAfter.scope}, restock ${call.countsAfter.restock} (saw ${counts.scope}, ${counts.restock})`,
      );
    }
  } catch (error) {
    tally.fail(error);
  } finally {
    await connection.close();
  }
  return tally.report(`${LABEL[variant]} ${run.transport} ${PROTOCOL[run.era]}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    options: {
      http: { type: 'boolean', default: false },
      legacy: { type: 'boolean', default: false },
      guided: { type: 'boolean', default: false },
      ask: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  const url = positionals[0];
  const run = {
    transport: values.http ? 'http' : 'stdio',
    era: values.legacy ? 'legacy' : 'modern',
    variant: values.guided ? 'guided' : 'seed',
    ...(url !== undefined && { url: new URL(url) }),
  } as const;
  if (values.ask) {
    const { runAskMode } = await import('./ask.js');
    const { openTerminal } = await import('mcp-resolve/client');
    await runAskMode({ ...run, terminal: openTerminal(process.stdin, process.stdout) });
  } else {
    const report = await runRefundDesk(run);
    process.exitCode = report.failed > 0 ? 1 : 0;
  }
}
