/**
 * The resolution engine. A pass visits resolved parameters in declaration order, and each
 * resolver's dependencies in declaration order; each resolver runs at most once per pass. A
 * resolver whose question has no answer yet is waiting: its consumers wait too, while independent
 * branches keep running, so every independent question of the pass is found and asked together.
 *
 * A modern round is one pass (the handler is re-entered for the next). A legacy call runs passes
 * in process: between two passes the waiting questions are pushed to the client and settled, and
 * what was resolved stays resolved, so every resolver runs once per call and questions are asked
 * in the same order as on the modern era.
 */
import type { ToolContext } from '../context.js';
import type { RequestTrace } from '../telemetry/hooks.js';
import { ToolError } from '../errors.js';
import { isPromiseLike } from '../promise.js';
import type { PlanEdge, PlanNode, ResolutionPlan } from './graph.js';
import type { Ask, ElicitationResult } from '../questions/markers.js';
import { isAsk } from '../questions/markers.js';
import { traceStep } from '../telemetry/step.js';

/** Answers a resolver's question now, or leaves it waiting (`undefined`). */
export interface Asker {
  /** `dependsOnAnswer`: some input of this resolver came, directly or not, from an answered question. */
  ask(node: PlanNode, ask: Ask, dependsOnAnswer: boolean): Promise<ElicitationResult<unknown> | undefined>;
}

/** The outcome of a pass: every parameter resolved, or some question still waiting. */
export type PassResult =
  { readonly kind: 'resolved'; readonly values: Record<string, unknown> } | { readonly kind: 'pending' };

interface Ready {
  readonly kind: 'ready';
  readonly outcome: ElicitationResult<unknown>;
  /** The text of the question this outcome answers, when it answers one. */
  readonly question?: string | undefined;
  /** Whether the value came, directly or not, from an answered question. */
  readonly fromAnswer: boolean;
}

const PENDING_PASS: PassResult = { kind: 'pending' };

/** What a pass has gathered so far: the parameters' values, and whether one is still waiting. */
interface PassProgress {
  readonly values: Record<string, unknown>;
  pending: boolean;
}

const ABORTED = { decline: 'declined', cancel: 'cancelled' } as const;

/**
 * `Resolver for parameter '<param>' could not resolve: elicitation was decline` (or `cancel`): the
 * reference SDK's text, verbatim and first (stable, documented in docs/guides/resolvers.md), then a
 * sentence for people: `"<question>" was declined, so the call stopped.`
 */
function abortMessage(param: string, action: 'decline' | 'cancel', question: string | undefined): string {
  const what = question === undefined ? 'The question' : JSON.stringify(question);
  return `Resolver for parameter '${param}' could not resolve: elicitation was ${action}. ${what} was ${ABORTED[action]}, so the call stopped.`;
}

/** The text a person reads for a question, when it has one. */
export function questionText(ask: Ask): string | undefined {
  return 'message' in ask ? ask.message : undefined;
}

/** Delivers a node's outcome over `edge`; an unwrapped consumer of a decline aborts the call. */
function deliverOutcome(edge: PlanEdge, state: Ready): unknown {
  const { outcome } = state;
  if (edge.mode === 'outcome') return outcome;
  if (outcome.action === 'accept') return outcome.value;
  throw new ToolError(abortMessage(edge.name, outcome.action, state.question));
}

/** One call's resolution of `plan`: run passes until every parameter is resolved. */
export class Resolution {
  private readonly ready = new Map<PlanNode, Ready>();
  private readonly waiting = new Set<PlanNode>();

  constructor(
    private readonly plan: ResolutionPlan,
    private readonly args: Readonly<Record<string, unknown>>,
    private readonly ctx: ToolContext,
    /** The request's observer, when the server has `telemetry`: told of each resolver's run. */
    private readonly trace: RequestTrace | undefined,
  ) {}

  /**
   * Runs one pass over the plan; `asker` answers or parks each question the pass meets. A resolver
   * whose dependency is waiting waits too, while the rest of the plan runs on. The pass runs
   * synchronously as long as resolvers return plain values, and goes on asynchronously from the
   * first that returns a promise or a question: a call that asks nothing and awaits nothing costs
   * no microtask here (it runs on every call).
   */
  pass(asker: Asker): PassResult | Promise<PassResult> {
    return this.passFrom(0, { values: {}, pending: false }, asker);
  }

  /** The pass from step `start` of the schedule on. */
  private passFrom(start: number, progress: PassProgress, asker: Asker): PassResult | Promise<PassResult> {
    const { schedule } = this.plan;
    for (let index = start; index < schedule.length; index++) {
      const step = schedule[index];
      if (step === undefined) break;
      if (step.kind !== 'run') {
        const state = this.ready.get(step.edge.node);
        if (state === undefined) progress.pending ||= step.kind === 'param';
        else if (step.kind === 'param') progress.values[step.edge.name] = deliverOutcome(step.edge, state);
        else deliverOutcome(step.edge, state); // a decline its consumer cannot take aborts here, before later branches run
        continue;
      }
      const { node } = step;
      if (this.ready.has(node) || this.waiting.has(node)) continue;
      const input = this.inputOf(node);
      if (input === undefined) continue;
      const value = this.run(node, input);
      if (isPromiseLike(value) || isAsk(value))
        return this.takeUp(node, value, asker, () => this.passFrom(index + 1, progress, asker));
      this.ready.set(node, {
        kind: 'ready',
        outcome: { action: 'accept', value },
        fromAnswer: this.dependsOnAnswer(node),
      });
    }
    return progress.pending ? PENDING_PASS : { kind: 'resolved', values: progress.values };
  }

  /** Takes up what a resolver returned that is not a plain value (a promise, a question), then goes on with the pass. */
  private async takeUp(
    node: PlanNode,
    returned: unknown,
    asker: Asker,
    goOn: () => PassResult | Promise<PassResult>,
  ): Promise<PassResult> {
    const value: unknown = await returned;
    const dependsOnAnswer = this.dependsOnAnswer(node);
    if (!isAsk(value)) {
      this.ready.set(node, { kind: 'ready', outcome: { action: 'accept', value }, fromAnswer: dependsOnAnswer });
    } else {
      const answer = await asker.ask(node, value, dependsOnAnswer);
      if (answer === undefined) this.waiting.add(node);
      else this.ready.set(node, { kind: 'ready', outcome: answer, fromAnswer: true, question: questionText(value) });
    }
    return goOn();
  }

  /** A resolver's input (its tool arguments and resolved dependencies), or `undefined` while a dependency is unresolved. */
  private inputOf(node: PlanNode): Record<string, unknown> | undefined {
    const input: Record<string, unknown> = {};
    for (const arg of node.args) input[arg] = this.args[arg];
    for (const edge of node.deps) {
      const state = this.ready.get(edge.node);
      if (state === undefined) return undefined;
      input[edge.name] = deliverOutcome(edge, state);
    }
    return input;
  }

  /** Whether some input of `node` came, directly or not, from an answered question. */
  private dependsOnAnswer(node: PlanNode): boolean {
    for (const edge of node.deps) if (this.ready.get(edge.node)?.fromAnswer === true) return true;
    return false;
  }

  private run(node: PlanNode, input: Record<string, unknown>): unknown {
    const fn = node.resolver.fn as (input: unknown, ctx: ToolContext) => unknown;
    const { trace } = this;
    return trace === undefined ? fn(input, this.ctx) : traceStep(trace.resolver(node.label), () => fn(input, this.ctx));
  }

  /** Supplies the answer to the question (keyed `key`) the last pass left waiting; `question` is its text. */
  settle(key: string, outcome: ElicitationResult<unknown>, question: string | undefined): void {
    for (const node of this.waiting) {
      if (node.key !== key) continue;
      this.waiting.delete(node);
      this.ready.set(node, { kind: 'ready', outcome, fromAnswer: true, question });
      return;
    }
  }
}
