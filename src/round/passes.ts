/**
 * The round's pass loop: {@link runPasses} runs a piece of work (a plan's passes, a `journaled`
 * handler) pass by pass until it is done or the round's strategy ends the round, and
 * {@link resolvePlan} is that loop over a resolver plan, for a round and for a task, whose passes
 * ({@link PlanPasses}) turn each resolver's marker into a question, answered from what the
 * strategy knows or left waiting. The loop is the round's: the work and the strategy are values
 * handed in, and neither calls back into the round.
 */
import type { InputRequiredResult } from '@modelcontextprotocol/server';

import type { RoundServices, ToolContext } from '../context.js';
import { isPromiseLike } from '../promise.js';
import type { Ask, ElicitationResult } from '../questions/markers.js';
import type { Question } from '../questions/render.js';
import { renderQuestion } from '../questions/render.js';
import type { PassingWork, PassReached, RoundStrategy } from '../questions/strategy.js';
import { HandOff } from '../questions/strategy.js';
import type { Asker, PassResult } from '../resolvers/engine.js';
import { questionText, Resolution } from '../resolvers/engine.js';
import type { PlanNode, ResolutionPlan } from '../resolvers/graph.js';

/**
 * Passes `work` to its value, or to the result with which `strategy` ends this round: the
 * `input_required` reply, or a {@link HandOff}, whose result is the call's.
 */
export async function runPasses<T>(
  strategy: Pick<RoundStrategy, 'end'>,
  work: PassingWork<T>,
): Promise<T | InputRequiredResult | HandOff> {
  for (;;) {
    const reached = await work.run();
    if (reached.kind === 'done') return reached.value;
    const end = await strategy.end(reached.questions);
    if (end.kind === 'reply') return end.result;
    if (end.kind === 'handOff') return new HandOff(end.result);
    for (const answer of end.answers) await work.settle(answer.question, answer.outcome);
  }
}

/**
 * Resolves `plan` for one round (or one advance of a task) by `strategy`: the resolved values, or
 * the `input_required` reply or the {@link HandOff} that ends the round. When every resolver returns a plain value the
 * first pass resolves synchronously and its values come back as they are (no promise; a strategy
 * built on demand is never built): the call that asks nothing.
 */
export function resolvePlan(
  plan: ResolutionPlan,
  args: Readonly<Record<string, unknown>>,
  ctx: ToolContext,
  round: RoundServices,
  strategy: RoundStrategy,
): Record<string, unknown> | Promise<Record<string, unknown> | InputRequiredResult | HandOff> {
  const passes = new PlanPasses(plan, new Resolution(plan, args, ctx, round.trace), strategy);
  const first = passes.start();
  if (!isPromiseLike(first) && first.kind === 'resolved') return first.values;
  return runPasses(strategy, passes);
}

/**
 * The passes of one round's resolution of a plan: the questions they meet are answered by, or
 * admitted to, `strategy` (a `RoundStrategy` built only when a question first uses it, when the
 * caller wants that), and the rest wait for the round's loop to end the round or settle them.
 */
class PlanPasses implements PassingWork<Record<string, unknown>>, Asker {
  /** The first pass, started by {@link start}; taken up by the first {@link run}. */
  #first: PassResult | Promise<PassResult> | undefined;
  readonly #waiting: Question[] = [];

  constructor(
    private readonly plan: ResolutionPlan,
    private readonly resolution: Resolution,
    private readonly strategy: Pick<RoundStrategy, 'recall' | 'admit'>,
  ) {}

  /** Starts the first pass, synchronously as far as the resolvers allow; {@link run} goes on from it. */
  start(): PassResult | Promise<PassResult> {
    return (this.#first = this.resolution.pass(this));
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
    const known = await this.strategy.recall(question, !dependsOnAnswer);
    if (known !== undefined) return known;
    this.strategy.admit(question);
    this.#waiting.push(question);
    return undefined;
  }

  async run(): Promise<PassReached<Record<string, unknown>>> {
    const pass = await (this.#first ?? this.resolution.pass(this));
    this.#first = undefined;
    if (pass.kind === 'resolved') return { kind: 'done', value: pass.values };
    if (this.#waiting.length === 0) throw new Error('mcp-resolve: a pass is pending with no question to ask.');
    return { kind: 'waiting', questions: this.#waiting.splice(0) };
  }

  async settle(question: Question, outcome: Promise<ElicitationResult<unknown>>): Promise<void> {
    this.resolution.settle(question.key, await outcome, questionText(question.ask));
  }
}
