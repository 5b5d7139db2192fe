/**
 * The round's pass loop: {@link runPasses} runs a piece of work (a plan's passes, a `journaled`
 * handler) pass by pass until it is done or the round's strategy ends the round, and
 * {@link resolvePlan} is that loop over a resolver plan, for a round and for a task. The loop is
 * the round's: the work and the strategy are values handed in, and neither calls back into the round.
 */
import type { InputRequiredResult } from '@modelcontextprotocol/server';

import type { RoundServices, ToolContext } from '../context.js';
import { isPromiseLike } from '../promise.js';
import type { PassingWork, RoundStrategy } from '../questions/strategy.js';
import { HandOff } from '../questions/strategy.js';
import { Resolution } from '../resolvers/engine.js';
import type { ResolutionPlan } from '../resolvers/graph.js';
import { PlanPasses } from '../resolvers/planPasses.js';

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
  const resolution = new Resolution(plan, args, ctx, round.trace);
  const passes = new PlanPasses(plan, resolution, strategy);
  const first = resolution.pass(passes);
  if (!isPromiseLike(first) && first.kind === 'resolved') return first.values;
  passes.first = first;
  return runPasses(strategy, passes);
}
