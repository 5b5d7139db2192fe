/**
 * The resolver engine as a client of the questions layer: each pass of the plan is one run; a
 * resolver's marker becomes a question keyed by its plan node, answered from what the round knows
 * or left waiting; the era's strategy ends the round (modern: `input_required`; legacy: pushes,
 * then the next pass).
 */
import type { InputRequiredResult } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { isPromiseLike } from '../promise.js';
import type { Ask, ElicitationResult } from '../questions/markers.js';
import { renderQuestion } from '../questions/render.js';
import type { Question } from '../questions/render.js';
import type { PassingWork, PassReached, RoundEnd, RoundStrategy } from '../questions/strategy.js';
import { runPasses } from '../questions/strategy.js';
import type { PassResult } from './engine.js';
import { questionText, Resolution } from './engine.js';
import type { PlanNode, ResolutionPlan } from './graph.js';

/** Where a round's strategy comes from: asked for only when a resolver asks a question. */
export interface StrategySource {
  strategy(): RoundStrategy;
}

/**
 * Resolves `plan` for one round: the resolved values, or the `input_required` reply that ends the
 * round. When every resolver returns a plain value the first pass resolves synchronously and its
 * values come back as they are (no promise, no strategy built): the call that asks nothing.
 */
export function resolvePlan(
  plan: ResolutionPlan,
  args: Readonly<Record<string, unknown>>,
  ctx: ToolContext,
  source: StrategySource,
): Record<string, unknown> | Promise<Record<string, unknown> | InputRequiredResult> {
  const resolution = new Resolution(plan, args, ctx);
  const passes = new PlanPasses(plan, resolution, source);
  const first = resolution.pass(passes);
  if (!isPromiseLike(first) && first.kind === 'resolved') return first.values;
  passes.first = first;
  return runPasses(passes, passes);
}

/** The passes of one round's resolution: the questions they meet go to the round's strategy. */
class PlanPasses implements PassingWork<Record<string, unknown>>, Pick<RoundStrategy, 'end'> {
  /** The first pass, already started by {@link resolvePlan}; taken up by the first {@link run}. */
  first: PassResult | Promise<PassResult> | undefined;
  private readonly waiting: Question[] = [];
  private built: RoundStrategy | undefined;

  constructor(
    private readonly plan: ResolutionPlan,
    private readonly resolution: Resolution,
    private readonly source: StrategySource,
  ) {}

  /** The round's strategy, built when a question first needs it. */
  strategy(): RoundStrategy {
    return (this.built ??= this.source.strategy());
  }

  /** Ends a round whose pass waits on `pending`, by the round's strategy. */
  end(pending: readonly Question[]): Promise<RoundEnd> {
    return this.strategy().end(pending);
  }

  /** Answers a resolver's question from what the round knows, or admits it and leaves it waiting. */
  async ask(node: PlanNode, ask: Ask, dependsOnAnswer: boolean): Promise<ElicitationResult<unknown> | undefined> {
    const question: Question = {
      key: node.key,
      label: node.label,
      ask,
      rendered: renderQuestion(ask, node.label),
      declineEndsCall: this.plan.declineEndsCall.has(node),
    };
    // Only a resolver that depends on no answer may be answered before it was asked.
    const known = await this.strategy().recall(question, !dependsOnAnswer);
    if (known !== undefined) return known;
    this.strategy().admit(question);
    this.waiting.push(question);
    return undefined;
  }

  async run(): Promise<PassReached<Record<string, unknown>>> {
    const pass = await (this.first ?? this.resolution.pass(this));
    this.first = undefined;
    if (pass.kind === 'resolved') return { kind: 'done', value: pass.values };
    if (this.waiting.length === 0) throw new Error('mcp-resolve: a pass is pending with no question to ask.');
    return { kind: 'waiting', questions: this.waiting.splice(0) };
  }

  async settle(question: Question, outcome: Promise<ElicitationResult<unknown>>): Promise<void> {
    this.resolution.settle(question.key, await outcome, questionText(question.ask));
  }
}
