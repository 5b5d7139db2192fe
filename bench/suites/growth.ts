/**
 * 4. State growth: how many `requestState` bytes each unit of progress costs on the wire.
 * Every source yields the size of the state after 0, 1, 2, … units; the growth per unit is the
 * median step. Option J (journaled steps, `src/mrtr`) adds its source to `STATE_SOURCES`.
 */
import { z } from 'zod';

import type { AnyResolver } from 'mcp-resolve';
import { elicit, McpResolveServer, resolver } from 'mcp-resolve';

import { TOKEN_OVERHEAD_BYTES } from '../../src/state/index.js';
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

/** The sources section 4 measures; a source for option J's journaled steps belongs here. */
export const STATE_SOURCES: readonly StateSource[] = [
  recordedAnswers('boolean form, `{ ok: true }`', z.object({ ok: z.boolean() }), { ok: true }),
  recordedAnswers('100-character text', z.object({ note: z.string() }), { note: 'n'.repeat(100) }),
];

const plaintextBytes = (token: string) => Buffer.from(token, 'base64url').length - TOKEN_OVERHEAD_BYTES;

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
        'Option J (journaled steps) is not measured yet: it lands as another entry of `STATE_SOURCES` in `bench/suites/growth.ts`.',
      ],
      targets: [],
      data,
    };
  },
};
