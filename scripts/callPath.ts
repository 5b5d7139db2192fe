/**
 * Lists the `src/` files one 2026-07-28 `tools/call` runs code in, as V8 counts it: a tool whose
 * resolver asks, served by `serveHttp`, one call posted after two warm-up rounds (so nothing of
 * module loading or first-use setup is counted). It measures how far a reader of the call must go.
 *
 *   npx tsx scripts/callPath.ts            # the round that asks (`input_required`)
 *   npx tsx scripts/callPath.ts answered   # the round that brings the answer and runs the body
 *   npx tsx scripts/callPath.ts plain      # a tool without resolvers
 */
import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { z } from 'zod';

import { elicit, McpResolveServer, outcome, resolver } from '../src/index.js';
import { serveHttp } from '../src/node/index.js';

const ROUNDS = ['ask', 'answered', 'plain'] as const;
const round = process.argv[2] ?? 'ask';
if (!(ROUNDS as readonly string[]).includes(round)) {
  console.error(`callPath: the round must be one of ${ROUNDS.join(', ')} (got '${round}').`);
  process.exit(2);
}

const loadOrder = resolver({ args: { order_id: z.string() } }, ({ order_id }) => ({ id: order_id, total: 4200 }));
const confirm = resolver({ deps: { order: loadOrder } }, ({ order }) =>
  elicit(`Refund ${order.total} cents for ${order.id}?`, z.object({ ok: z.boolean() })),
);
const desk = new McpResolveServer({ name: 'desk', version: '1.0.0' }, { requestState: { keys: ['0'.repeat(64)] } })
  .tool('plain', { input: { order_id: z.string() } }, ({ order_id }) => `looked up ${order_id}`)
  .tool(
    'refund',
    { input: { order_id: z.string() }, resolve: { order: loadOrder, confirm: outcome(confirm) } },
    (args) => (args.confirm.action === 'accept' ? `refunded ${args.order.total}` : 'not refunded'),
  );

const served = await serveHttp(desk);
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'call-path', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
const ANSWERS = { confirm: { action: 'accept', content: { ok: true } } };

/** Posts one `tools/call` of `name` (with `extra` params) and answers its result. */
async function call(name: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': name,
  };
  const params = { name, arguments: { order_id: 'A-1' }, ...extra, _meta: META };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
  const reply = (await (await fetch(served.url, { method: 'POST', headers, body })).json()) as {
    result?: Record<string, unknown>;
  };
  if (reply.result === undefined) throw new Error(`callPath: ${name} failed: ${JSON.stringify(reply)}`);
  return reply.result;
}

/** Asks, then answers: the round that ran last is the answered one. */
async function askAndAnswer(): Promise<void> {
  const asked = await call('refund');
  await call('refund', { inputResponses: ANSWERS, requestState: asked.requestState });
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await askAndAnswer();
await call('plain');
let state: unknown;
if (round === 'answered') state = (await call('refund')).requestState;
await session.post('Profiler.takePreciseCoverage'); // the counts start again from here
if (round === 'ask') await call('refund');
else if (round === 'plain') await call('plain');
else await call('refund', { inputResponses: ANSWERS, requestState: state });
const { result } = await session.post('Profiler.takePreciseCoverage');
await served.close();

const root = fileURLToPath(new URL('../', import.meta.url));
const files = result
  .filter((script) => script.url.startsWith('file:') && fileURLToPath(script.url).startsWith(`${root}src/`))
  .map((script) => ({
    file: relative(root, fileURLToPath(script.url)),
    // Every function that ran but the module's own top level (and `__name`, which tsx adds to each module).
    ran: script.functions.filter(
      (fn) => fn.ranges[0]!.count > 0 && fn.ranges[0]!.startOffset > 0 && fn.functionName !== '__name',
    ),
  }))
  .filter(({ ran }) => ran.length > 0)
  .sort((a, b) => a.file.localeCompare(b.file));
for (const { file, ran } of files) {
  const names = [...new Set(ran.map((fn) => fn.functionName || '(anonymous)'))];
  console.log(`${file.padEnd(44)} ${names.join(', ')}`);
}
console.log(`\n${files.length} src files ran in the ${round} round.`);
