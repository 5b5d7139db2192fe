/**
 * 4. State growth: how many `requestState` bytes each unit of progress costs on the wire.
 * Every source yields the size of the state after 0, 1, 2, … units; the growth per unit is the
 * median step. Sources: resolvers' recorded answers, and (4-J) option J's journal, per recorded
 * `ctx.step` result and per answered `ctx.elicit`.
 */
import { z } from 'zod';

import type { AnyResolver } from 'mcp-resolve';
import { elicit, McpResolveServer, resolver } from 'mcp-resolve';
import { journaled } from 'mcp-resolve/mrtr';

import { TOKEN_OVERHEAD_BYTES } from '../../src/state/token.js';
import type { Benchmark, Json } from '../lib/registry.js';
import { connectRawPeer, traceModernCall } from '../lib/rawPeer.js';
import { fmt, summarize } from '../lib/stats.js';

/** Something whose state grows per unit of progress. */
export interface StateSource {
  /** What grows, e.g. `recorded answer (boolean form)`. */
  readonly label: string;
  /** The unit, e.g. `answer` or `journaled step`. */
  readonly unit: string;
  /** The wire `requestState` values (built-in sealed tokens) carrying 0, 1, 2, … units. */
  measure(): Promise<readonly string[]>;
}

const CHAIN_LENGTH = 8;

/** A tool asking `CHAIN_LENGTH` questions in a chain, so round k's state holds k − 1 recorded answers. */
function chainServer(schema: z.ZodObject<z.ZodRawShape>): McpResolveServer {
  let previous: AnyResolver = resolver({ name: 'step0' }, () => elicit('step 0?', schema));
  for (let step = 1; step < CHAIN_LENGTH; step++) {
    previous = resolver({ name: `step${step}`, deps: { previous } }, ({ previous }) =>
      elicit(`step ${step} after ${JSON.stringify(previous)}?`, schema),
    );
  }
  return new McpResolveServer({ name: 'growth', version: '1.0.0' }).tool(
    'chain',
    { resolve: { last: previous } },
    () => 'done',
  );
}

/** Recorded answers of a given form: the states of one chained call, round by round. */
function recordedAnswers(
  label: string,
  schema: z.ZodObject<z.ZodRawShape>,
  content: Record<string, unknown>,
): StateSource {
  return {
    label: `recorded answer (${label})`,
    unit: 'answer',
    async measure() {
      const peer = await connectRawPeer(chainServer(schema).createServer);
      try {
        const trace = await traceModernCall(peer, 'chain', {}, () => ({ action: 'accept', content }));
        if (trace.states.length !== CHAIN_LENGTH) {
          throw new Error(`expected ${CHAIN_LENGTH} rounds with state, saw ${trace.states.length}`);
        }
        return trace.states;
      } finally {
        await peer.close();
      }
    },
  };
}

const plaintextBytes = (token: string) => Buffer.from(token, 'base64url').length - TOKEN_OVERHEAD_BYTES;

/** Checks that each token is exactly the journal `onSuspend` measured, sealed: the plaintext column is the journal. */
function checkJournals(label: string, states: readonly string[], journalBytes: readonly number[]): readonly string[] {
  const plain = states.map(plaintextBytes);
  if (plain.length !== journalBytes.length || plain.some((bytes, index) => bytes !== journalBytes[index])) {
    throw new Error(`${label}: token plaintexts ${plain.join(', ')} are not the journals ${journalBytes.join(', ')}`);
  }
  return states;
}

const JOURNAL_STEPS_INPUT = { steps: z.number().int().min(0) };

/**
 * Option J's recorded `ctx.step` results: one call per k = 0 … CHAIN_LENGTH − 1 of a handler that
 * runs k steps (`step0`, `step1`, …, each returning `value`) and then asks one question; the
 * state of its first round carries k recorded results and the pending question.
 */
function journaledSteps(label: string, value: () => unknown): StateSource {
  return {
    label: `option J: \`ctx.step\` result (${label})`,
    unit: 'journaled step',
    async measure() {
      const journalBytes: number[] = [];
      const server = new McpResolveServer({ name: 'growth', version: '1.0.0' }).tool(
        'steps',
        { input: JOURNAL_STEPS_INPUT },
        journaled(
          async ({ steps }, ctx) => {
            for (let step = 0; step < steps; step++) await ctx.step(`step${step}`, value);
            await ctx.elicit('go on?', z.object({ ok: z.boolean() }));
            return 'done';
          },
          { onSuspend: (info) => void journalBytes.push(info.journalBytes) },
        ),
      );
      const peer = await connectRawPeer(server.createServer);
      try {
        const states: string[] = [];
        for (let steps = 0; steps < CHAIN_LENGTH; steps++) {
          const result = await peer.request('tools/call', { name: 'steps', arguments: { steps } });
          const state = result['requestState'];
          if (result['resultType'] !== 'input_required' || typeof state !== 'string') {
            throw new Error(`${label}: ${steps} step(s) did not suspend with state: ${JSON.stringify(result)}`);
          }
          states.push(state);
        }
        return checkJournals(label, states, journalBytes);
      } finally {
        await peer.close();
      }
    },
  };
}

/**
 * Option J's answered `ctx.elicit` questions: a handler asking CHAIN_LENGTH questions one after
 * another, so round k's journal holds k − 1 recorded answers and the key of the question just asked.
 */
function journaledAnswers(
  label: string,
  schema: z.ZodObject<z.ZodRawShape>,
  content: Record<string, unknown>,
): StateSource {
  return {
    label: `option J: answered \`ctx.elicit\` (${label})`,
    unit: 'answered question',
    async measure() {
      const journalBytes: number[] = [];
      const server = new McpResolveServer({ name: 'growth', version: '1.0.0' }).tool(
        'chain',
        {},
        journaled(
          async (_args, ctx) => {
            for (let step = 0; step < CHAIN_LENGTH; step++) await ctx.elicit(`step ${step}?`, schema);
            return 'done';
          },
          { onSuspend: (info) => void journalBytes.push(info.journalBytes) },
        ),
      );
      const peer = await connectRawPeer(server.createServer);
      try {
        const trace = await traceModernCall(peer, 'chain', {}, () => ({ action: 'accept', content }));
        if (trace.states.length !== CHAIN_LENGTH) {
          throw new Error(`expected ${CHAIN_LENGTH} rounds with state, saw ${trace.states.length}`);
        }
        return checkJournals(label, trace.states, journalBytes);
      } finally {
        await peer.close();
      }
    },
  };
}

/** The sources section 4 measures. */
export const STATE_SOURCES: readonly StateSource[] = [
  recordedAnswers('boolean form, `{ ok: true }`', z.object({ ok: z.boolean() }), { ok: true }),
  recordedAnswers('100-character text', z.object({ note: z.string() }), { note: 'n'.repeat(100) }),
  journaledAnswers('boolean form, `{ ok: true }`', z.object({ ok: z.boolean() }), { ok: true }),
  journaledAnswers('100-character text', z.object({ note: z.string() }), { note: 'n'.repeat(100) }),
  journaledSteps('`undefined`', () => undefined),
  journaledSteps("small object, `{ refundId: 'RF-0001', cents: 4800 }`", () => ({ refundId: 'RF-0001', cents: 4800 })),
];

function steps(values: readonly number[]): number[] {
  return values.slice(1).map((value, index) => value - (values[index] ?? value));
}

export const growth: Benchmark = {
  id: 'growth',
  title: '4. State growth',
  async run(context) {
    const rows: string[][] = [];
    const data: Json[] = [];
    for (const source of STATE_SOURCES) {
      const states = await source.measure();
      const chars = states.map((state) => state.length);
      const plain = states.map(plaintextBytes);
      const perUnit = summarize(steps(chars));
      const perUnitPlain = summarize(steps(plain));
      context.log(`  ${source.label}: ${fmt(perUnit.median)} chars per ${source.unit}`);
      rows.push([
        source.label,
        `${chars[0] ?? 0} chars (${plain[0] ?? 0} B plaintext)`,
        `${fmt(perUnit.median)} chars (${fmt(perUnitPlain.median)} B plaintext)`,
        `${fmt(perUnit.min)}–${fmt(perUnit.max)}`,
        `${chars[chars.length - 1] ?? 0} chars after ${chars.length - 1}`,
      ]);
      data.push({ source: source.label, unit: source.unit, stateChars: chars, plaintextBytes: plain });
    }
    return {
      tables: [
        {
          columns: [
            'what grows',
            'state with 0 (first round)',
            'growth per unit (median)',
            'range',
            'largest measured',
          ],
          rows,
        },
      ],
      notes: [
        `A bare peer drives a tool whose ${CHAIN_LENGTH} questions form a chain, over the in-memory transport on 2026-07-28, and records each round's \`requestState\` as sent: round k carries k − 1 recorded answers plus the digest of the question just asked. Deterministic: sizes, not timings.`,
        `Each recorded answer stores its key, a digest pinning it to its question, and the raw response; sealing adds a fixed ${TOKEN_OVERHEAD_BYTES} bytes per token, and base64url adds a third.`,
        `Option J (4-J): the state is the handler's journal, sealed, so the plaintext column is the journal itself (checked against the size \`onSuspend\` reports, every round). Answers: a journaled handler asking ${CHAIN_LENGTH} questions one after another, round k carrying k − 1 recorded answers and the pending question's key. Steps: one call per k = 0 … ${CHAIN_LENGTH - 1} of a handler recording k \`ctx.step\` results (named \`step0\`, \`step1\`, …) before asking one question, measured at its first round. Each answer is stored under a 16-character key with the raw response; each step result under its name, as \`[value]\` (\`[]\` for \`undefined\`).`,
      ],
      targets: [],
      data,
    };
  },
};
