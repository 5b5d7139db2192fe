/**
 * The resolver engine as a client of the questions layer: each pass of the plan is one run; a
 * resolver's marker becomes a question keyed by its plan node, answered from what the round knows
 * or left waiting; the era's strategy ends the round (modern: `input_required`; legacy: pushes,
 * then the next pass).
 */
import type { InputRequiredResult } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { renderQuestion } from '../questions/render.js';
import type { Question } from '../questions/render.js';
import { runPasses } from '../questions/runPasses.js';
import type { RoundStrategy } from '../questions/strategy.js';
import type { Asker } from './engine.js';
import { questionText, Resolution } from './engine.js';
import type { ResolutionPlan } from './graph.js';

/**
 * Resolves `plan` for one round: the resolved values, or the `input_required` reply that ends the
 * round. `strategyOf` is called only when a resolver asks a question, so a call whose resolvers
 * ask nothing never builds the era's strategy (nor reads its ledger).
 */
export async function resolvePlan(
  plan: ResolutionPlan,
  args: Readonly<Record<string, unknown>>,
  ctx: ToolContext,
  strategyOf: () => RoundStrategy,
): Promise<Record<string, unknown> | InputRequiredResult> {
  const resolution = new Resolution(plan, args, ctx);
  let strategy: RoundStrategy | undefined;
  const waiting: Question[] = [];
  const asker: Asker = {
    async ask(node, ask, dependsOnAnswer) {
      strategy ??= strategyOf();
      const question: Question = {
        key: node.key,
        label: node.label,
        ask,
        rendered: renderQuestion(ask, node.label),
        declineEndsCall: plan.declineEndsCall.has(node),
      };
      // Only a resolver that depends on no answer may be answered before it was asked.
      const known = await strategy.recall(question, !dependsOnAnswer);
      if (known !== undefined) return known;
      strategy.admit(question);
      waiting.push(question);
      return undefined;
    },
  };
  return runPasses(() => (strategy ??= strategyOf()), {
    async run() {
      const pass = await resolution.pass(asker);
      if (pass.kind === 'resolved') return { kind: 'done', value: pass.values };
      if (waiting.length === 0) throw new Error('mcp-resolve: a pass is pending with no question to ask.');
      return { kind: 'waiting', questions: waiting.splice(0) };
    },
    async settle(question, outcome) {
      resolution.settle(question.key, await outcome, questionText(question.ask));
    },
  });
}
