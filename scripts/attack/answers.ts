/**
 * Answers and URL questions under attack: `attempts` on 2026-07-28 whatever rounds come between,
 * fields and keys nobody asked for (the next token's size), `elicitUrl` with URLs that phish, the
 * default elicitation id across principals, and a client's `traceparent` flags `00`.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type * as Library from '../../src/index.js';
import type { AttackServer, Case, Leg, Outcome, Scope } from './harness.js';
import { accept, manualHttp, messageOf, outcome, raw, rawSession } from './harness.js';

const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** The ids of `elicitationId` fields anywhere in `value`. */
function elicitationIds(value: unknown): string[] {
  const text = JSON.stringify(value);
  return [...text.matchAll(/"elicitationId":"([^"]+)"/g)].map((match) => match[1]!);
}

const state = (leg: Leg) => (leg.kind === 'input_required' ? leg.requestState : undefined);
const describe = (leg: Leg) =>
  leg.kind === 'input_required'
    ? 'input_required'
    : leg.kind === 'complete'
      ? `complete${leg.isError ? ' (error)' : ''}`
      : `error "${leg.message.slice(0, 60)}"`;

/** The default elicitation id across principals, and a call whose `traceparent` has flags `00`. */
async function idsAndTrace(scope: Scope, server: AttackServer): Promise<Outcome[]> {
  const alice = await manualHttp(server.url, { token: 'token-alice' });
  const bob = await manualHttp(server.url, { token: 'token-bob' });
  scope.defer(async () => void (await Promise.all([alice.close(), bob.close()])));
  // The id a 2025-11-25 push carries (2026-07-28 URL questions carry none on the wire).
  const pushedId = async (principal: string) => {
    const auth = { authorization: `Bearer token-${principal}` };
    const { sessionId } = await rawSession(server.url, { elicitation: { form: {}, url: {} } }, undefined, auth);
    const response = await raw(server.url, {
      headers: { ...auth, 'mcp-session-id': sessionId ?? 'none', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'ask_url', arguments: {} },
      }),
    });
    return elicitationIds(messageOf(response));
  };
  const ids = [...(await pushedId('alice')), ...(await pushedId('alice')), ...(await pushedId('bob'))];
  const computable = createHash('sha256')
    .update('Open this page to pay.\nhttps://pay.example.com/checkout')
    .digest('base64url')
    .slice(0, 22);
  const distinct = new Set(ids).size;
  const results = [
    outcome(
      'default elicitation id: alice twice, bob once',
      ids.length === 3 && distinct === 3 && !ids.includes(computable),
      `${distinct} distinct of ${ids.length}${ids.includes(computable) ? ', equal to SHA-256(message, URL)' : ''} (limit: 3 distinct, not computable)`,
    ),
  ];
  const traceId = 'a'.repeat(31) + '1';
  const count = async () => Object.values(await server.spans()).reduce((sum, n) => sum + n, 0);
  const control = await count();
  await alice.round('echo', { text: 'hi' });
  await new Promise((wake) => setTimeout(wake, 200));
  const before = await count();
  const leg = await alice.round(
    'echo',
    { text: 'hi' },
    { _meta: { traceparent: `00-${traceId}-${'b'.repeat(16)}-00` } },
  );
  await new Promise((wake) => setTimeout(wake, 200));
  const exported = (await count()) - before;
  results.push(
    outcome(
      "a call with the client's traceparent flags 00",
      exported >= 1 && leg.kind === 'complete',
      `${exported} spans exported for it; ${before - control} for the same call without traceparent (limit: ≥ 1, tracing not switched off by the client)`,
    ),
  );
  return results;
}

export const answerCases: readonly Case[] = [
  {
    name: 'answers: attempts, unasked fields and keys, elicitation ids, traceparent',
    timeoutMs: 50_000,
    options: [
      '(answers) attempts for modern calls',
      'maxAnswerBytes (65536)',
      '(answers) inputResponses keys capped',
      '(answers) random per-principal elicitation id',
      'honorClientTraceFlags (false)',
    ],
    async run(scope) {
      const server = await scope.server({ auth: true, otel: true });
      const client = await manualHttp(server.url, { token: 'token-carol' });
      scope.defer(() => client.close());
      const results: Outcome[] = [];

      // 15 invalid answers, each followed by a round that omits the answer.
      let leg = await client.round('refund', { order_id: 'ORD-1' });
      let invalid = 0;
      while (leg.kind === 'input_required' && invalid < 15) {
        const key = Object.keys(leg.inputRequests)[0] ?? 'confirm';
        leg = await client.round(
          'refund',
          { order_id: 'ORD-1' },
          { inputResponses: { [key]: accept({ confirm: 'nope' }) }, requestState: state(leg) },
        );
        invalid += 1;
        if (leg.kind !== 'input_required') break;
        leg = await client.round('refund', { order_id: 'ORD-1' }, { requestState: state(leg) });
      }
      results.push(
        outcome(
          'modern call with attempts 3: invalid answers between rounds that omit them',
          invalid <= 3 && leg.kind !== 'input_required',
          `after ${invalid} invalid answers the call is ${describe(leg)} (limit: ended after ≤ 3)`,
        ),
      );

      // The next token after answers carrying what the question did not ask for.
      // Each variant answers the first round of a fresh call (a requestState is single-use).
      const next = async (inputResponses: (key: string) => Record<string, unknown>) => {
        const first = await client.round('refund2', { order_id: 'ORD-2' });
        if (first.kind !== 'input_required') throw new Error(`refund2: ${describe(first)}`);
        const key = Object.keys(first.inputRequests)[0]!;
        return client.round(
          'refund2',
          { order_id: 'ORD-2' },
          { inputResponses: inputResponses(key), requestState: first.requestState },
        );
      };
      const plain = state(await next((key) => ({ [key]: accept({ confirm: true }) })))?.length ?? 0;
      const extra = await next((key) => ({ [key]: accept({ confirm: true, note: 'x'.repeat(30_000) }) }));
      const huge = await next((key) => ({ [key]: accept({ confirm: true, note: 'x'.repeat(1_000_000) }) }));
      const keys = await next((key) => ({
        [key]: accept({ confirm: true }),
        ...Object.fromEntries(
          Array.from({ length: 1_000 }, (_, index) => [`k${index}`, accept({ v: 'y'.repeat(50) })]),
        ),
      }));
      const size = (leg: Leg) => (leg.kind === 'input_required' ? (leg.requestState?.length ?? 0) : 0);
      const bounded = (leg: Leg) => leg.kind !== 'input_required' || size(leg) <= plain + 512;
      results.push(
        outcome(
          'answer with a 30 kB field outside the schema',
          extra.kind === 'input_required' && size(extra) <= plain + 512,
          `next token ${size(extra)} chars, ${describe(extra)} (plain answer: ${plain}; limit: ≤ ${plain + 512}, call goes on)`,
        ),
        outcome(
          'answer with a 1 MB field outside the schema',
          bounded(huge),
          `${describe(huge)}, next token ${size(huge)} chars (limit: refused, or ≤ ${plain + 512})`,
        ),
        outcome(
          'inputResponses with 1,000 keys nobody asked for',
          bounded(keys),
          `${describe(keys)}, next token ${size(keys)} chars (limit: refused, or ≤ ${plain + 512})`,
        ),
      );
      results.push(...(await idsAndTrace(scope, server)));
      return results;
    },
  },
  {
    name: 'answers: elicitUrl refuses URLs that phish',
    timeoutMs: 10_000,
    options: ['(answers) elicitUrl validation at declaration'],
    async run() {
      const { elicitUrl } = (await import(pathToFileURL(DIST).href)) as typeof Library;
      const refuses = (url: string) => {
        try {
          elicitUrl('Open this page.', url);
          return false;
        } catch {
          return true;
        }
      };
      const bad = [
        'http://pay.example.com/checkout',
        'javascript:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        'file:///etc/passwd',
        'vbscript:msgbox(1)',
        'https://user:pass@pay.example.com/checkout',
        'https://pay.example.com/a\nb',
        'https://pay.example.com/\u0007',
      ];
      const good = [
        'https://pay.example.com/checkout',
        'http://localhost:3000/pay',
        'http://127.0.0.1:8080/pay',
        'http://[::1]:8080/pay',
      ];
      const accepted = bad.filter((url) => !refuses(url));
      const refused = good.filter(refuses);
      return [
        outcome(
          `elicitUrl with ${bad.length} phishing URLs`,
          accepted.length === 0,
          `${bad.length - accepted.length} of ${bad.length} refused${accepted.length > 0 ? `; accepted: ${accepted.map((url) => JSON.stringify(url.slice(0, 24))).join(', ')}` : ''} (limit: all refused)`,
        ),
        outcome(
          `elicitUrl with ${good.length} https and localhost URLs`,
          refused.length === 0,
          `${good.length - refused.length} of ${good.length} accepted (limit: all accepted)`,
        ),
      ];
    },
  },
];
