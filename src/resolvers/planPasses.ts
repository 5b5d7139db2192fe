/**
 * The resolver engine as a client of the questions layer: {@link PlanPasses}, one round's passes of
 * a plan as the round's pass loop (`round/passes.ts`) runs them. A resolver's marker becomes a
 * question keyed by its plan node, answered from what the round's strategy knows or left waiting.
 * The strategy is a value handed in at construction; nothing here calls back into the round.
 */
import type { ElicitationResult, Ask } from '../questions/markers.js';
import { renderQuestion } from '../questions/render.js';
import type { Question } from '../questions/render.js';
import type { PassingWork, PassReached, RoundStrategy } from '../questions/strategy.js';
import type { Asker, PassResult, Resolution } from './engine.js';
import { questionText } from './engine.js';
import type { PlanNode, ResolutionPlan } from './graph.js';

/**
 * The passes of one round's resolution of a plan: the questions they meet are answered by, or
 * admitted to, `strategy` (a `RoundStrategy` built only when a question first uses it, when the
 * caller wants that), and the rest wait for the round's loop to end the round or settle them.
 */
export class PlanPasses implements PassingWork<Record<string, unknown>>, Asker {
  /** The first pass, already started by the round; taken up by the first {@link run}. */
  first: PassResult | Promise<PassResult> | undefined;
  private readonly waiting: Question[] = [];

  constructor(
    private readonly plan: ResolutionPlan,
    private readonly resolution: Resolution,
    private readonly strategy: Pick<RoundStrategy, 'recall' | 'admit'>,
  ) {}

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
