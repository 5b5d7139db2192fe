/**
 * 2. Round trips: for synthetic resolver graphs and the refund desk, the rounds a modern call
 * takes (input_required responses before the result) against the minimum, the depth of its
 * question chain; and the questions asked on each era (each must be asked exactly once).
 */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { Era } from 'mcp-resolve';
import { connectInProcess } from 'mcp-resolve/testing';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { answerDesk, THREE_LEG_CALL } from '../fixtures/deskCalls.js';
import { createGraphServer, GRAPHS } from '../fixtures/graphs.js';
import type { Benchmark, Json, TargetCheck } from '../lib/registry.js';

interface Case {
  readonly label: string;
  readonly factory: McpServerFactory;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  /** The scripted human. */
  readonly elicit: (params: ElicitRequest['params']) => ElicitResult;
  readonly questions: number;
  readonly depth: number;
}

interface Observed {
  readonly legs: number;
  readonly questions: number;
  readonly pushes: number;
}

const YES: ElicitResult = { action: 'accept', content: { ok: true } };

async function observe(test: Case, era: Era): Promise<Observed> {
  const connection = await connectInProcess(test.factory, {
    era,
    elicit: test.elicit,
  });
  try {
    const result = await connection.client.callTool({ name: test.tool, arguments: test.arguments });
    if (result.isError === true) throw new Error(`${test.label} (${era}) failed: ${JSON.stringify(result.content)}`);
    const { legs, questions, pushes } = connection.counters;
    return { legs: legs['tools/call'] ?? 0, questions: questions['elicitation/create'] ?? 0, pushes };
  } finally {
    await connection.close();
  }
}

export const rounds: Benchmark = {
  id: 'rounds',
  title: '2. Round trips',
  async run(context) {
    const graphs = createGraphServer().createServer;
    const cases: Case[] = [
      ...GRAPHS.map((graph) => ({
        label: graph.label,
        factory: graphs,
        tool: graph.tool,
        arguments: {},
        elicit: () => YES,
        questions: graph.questions,
        depth: graph.depth,
      })),
      {
        label: 'refund desk (scope → restock)',
        factory: createRefundDesk().createServer,
        tool: 'refund_order',
        arguments: { ...THREE_LEG_CALL.arguments },
        elicit: answerDesk,
        questions: THREE_LEG_CALL.questions,
        depth: THREE_LEG_CALL.modernLegs - 1,
      },
    ];
    const rows: string[][] = [];
    const targets: TargetCheck[] = [];
    const data: Json[] = [];
    for (const test of cases) {
      const modern = await observe(test, 'modern');
      const legacy = await observe(test, 'legacy');
      const taken = modern.legs - 1;
      const onceEach =
        modern.questions === test.questions && legacy.questions === test.questions && legacy.pushes === test.questions;
      const met = taken === test.depth && onceEach && legacy.legs === 1;
      context.log(`  ${test.label}: ${taken} round(s), minimum ${test.depth}`);
      rows.push([
        test.label,
        String(test.questions),
        String(test.depth),
        `${taken} (${modern.legs} legs)`,
        String(modern.questions),
        `${legacy.pushes} in ${legacy.legs} leg`,
        met ? '✓' : '✗',
      ]);
      targets.push({ what: `rounds, ${test.label}`, target: `= ${test.depth}`, measured: String(taken), met });
      data.push({
        graph: test.label,
        questions: test.questions,
        minimumRounds: test.depth,
        modern: { ...modern },
        legacy: { ...legacy },
      });
    }
    return {
      tables: [
        {
          columns: [
            'graph',
            'questions',
            'minimum rounds (chain depth)',
            'modern rounds taken',
            'modern questions asked',
            'legacy pushes',
            'rounds = minimum, each question once',
          ],
          rows,
        },
      ],
      notes: [
        'Counted on the client side of a real SDK client in process (`connectInProcess` counters): a modern round is one `input_required` response, so rounds = `tools/call` legs − 1; legacy pushes are server-to-client requests during the one call.',
        'Deterministic: one call per graph and era, no timing.',
      ],
      targets,
      data,
    };
  },
};
