/**
 * The per-round engine. Resolved parameters are visited in declaration order, each resolver's
 * dependencies in declaration order; each resolver runs at most once per round. A resolver whose
 * question has no answer yet is pending: its consumers wait, while independent branches keep
 * running so every independent question of the round is found and asked together.
 */
import type { ToolContext } from '../context.js';
import { ToolError } from '../errors.js';
import type { PlanEdge, PlanNode, ResolutionPlan } from './graph.js';
import type { Ask, ElicitationResult } from './markers.js';
import { isAsk } from './markers.js';

/** Answers a resolver's question now, or records it for this round and returns `undefined`. */
export interface Asker {
  /** `dependsOnAnswer`: some input of this resolver came, directly or not, from an answered question. */
  ask(node: PlanNode, ask: Ask, dependsOnAnswer: boolean): Promise<ElicitationResult<unknown> | undefined>;
}

/** The outcome of one round: every parameter resolved, or some question still open. */
export type RoundResult =
  { readonly kind: 'resolved'; readonly values: Record<string, unknown> } | { readonly kind: 'pending' };

type NodeState =
  | { readonly kind: 'ready'; readonly outcome: ElicitationResult<unknown>; readonly fromAnswer: boolean }
  | { readonly kind: 'pending' };

const PENDING: NodeState = { kind: 'pending' };

function abortMessage(param: string, action: 'decline' | 'cancel'): string {
  return `Resolver for parameter '${param}' could not resolve: elicitation was ${action}`;
}

/** Delivers a node's outcome over `edge`; an unwrapped consumer of a decline aborts the call. */
function deliver(edge: PlanEdge, outcome: ElicitationResult<unknown>): unknown {
  if (edge.mode === 'outcome') return outcome;
  if (outcome.action === 'accept') return outcome.value;
  throw new ToolError(abortMessage(edge.name, outcome.action));
}

/** Runs one round of `plan` for validated tool arguments `args`. */
export async function runRound(
  plan: ResolutionPlan,
  args: Readonly<Record<string, unknown>>,
  ctx: ToolContext,
  asker: Asker,
): Promise<RoundResult> {
  const states = new Map<PlanNode, NodeState>();

  const evaluate = async (node: PlanNode): Promise<NodeState> => {
    const known = states.get(node);
    if (known) return known;
    const input: Record<string, unknown> = {};
    for (const arg of node.args) input[arg] = args[arg];
    let blocked = false;
    let dependsOnAnswer = false;
    for (const edge of node.deps) {
      const state = await evaluate(edge.node);
      if (state.kind === 'pending') {
        blocked = true;
      } else {
        input[edge.name] = deliver(edge, state.outcome);
        dependsOnAnswer ||= state.fromAnswer;
      }
    }
    let state: NodeState = PENDING;
    if (!blocked) {
      const value: unknown = await (node.resolver.fn as (input: unknown, ctx: ToolContext) => unknown)(input, ctx);
      if (isAsk(value)) {
        const answer = await asker.ask(node, value, dependsOnAnswer);
        state = answer === undefined ? PENDING : { kind: 'ready', outcome: answer, fromAnswer: true };
      } else {
        state = { kind: 'ready', outcome: { action: 'accept', value }, fromAnswer: dependsOnAnswer };
      }
    }
    states.set(node, state);
    return state;
  };

  const values: Record<string, unknown> = {};
  let pending = false;
  for (const edge of plan.params) {
    const state = await evaluate(edge.node);
    if (state.kind === 'pending') pending = true;
    else values[edge.name] = deliver(edge, state.outcome);
  }
  return pending ? { kind: 'pending' } : { kind: 'resolved', values };
}
