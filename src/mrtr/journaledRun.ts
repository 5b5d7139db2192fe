/**
 * One call of a journaled handler (`journaled.ts`), on either era: {@link JournaledRun} gives the
 * handler its context (steps and answers come from the journal; a question without an answer leaves
 * the handler waiting) and is the work the round's pass loop runs (`round/passes.ts`), so the era's
 * strategy ends the round (modern: `input_required` with the journal; legacy: pushes, then the same
 * run goes on).
 */
import type {
  CreateMessageRequestParams,
  InputRequiredResult,
  Root,
  StandardSchemaV1,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { AsyncLocalStorage } from 'node:async_hooks';

import { isInputRequiredResult } from '@modelcontextprotocol/server';

import { roundServicesOf, type ToolContext } from '../context.js';
import { McpResolveError } from '../errors.js';
import type { Ledger } from '../questions/ledger.js';
import { pinOf, occurrenceKeys } from '../questions/ledger.js';
import { QUESTION_KINDS } from '../questions/kinds.js';
import type { Ask, ElicitationResult, FlatForm, SampleResult } from '../questions/markers.js';
import { askKind, formQuestion, listRoots as rootsMarker, sample as sampleMarker } from '../questions/markers.js';
import { renderQuestion, type Question } from '../questions/render.js';
import type { PassingWork, PassReached, RoundStrategy } from '../questions/strategy.js';
import { isHandOff } from '../questions/strategy.js';
import { callChannelsOf } from '../channels/channel.js';
import { runPasses } from '../round/passes.js';
import { strategyFor } from '../round/strategies.js';
import type { HandlerResult } from './body.js';
import { never, RoundGate } from './gate.js';
import { asRecorded, journalOf, recordDurably } from './json.js';

/** What a journaled handler receives: the tool context plus the four journaled operations. */
export interface JournaledContext extends ToolContext {
  /**
   * Runs `fn` once per call and records its result (a JSON value); every later round of the call
   * gets the recorded result back without running `fn`. Steps are keyed by name and occurrence.
   */
  step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
  /** Asks the human `message`; the outcome is accepted (validated against `schema`), declined or cancelled. */
  elicit<TSchema extends StandardSchemaWithJSON>(
    message: string,
    schema: TSchema & FlatForm<StandardSchemaV1.InferOutput<TSchema>>,
  ): Promise<ElicitationResult<StandardSchemaV1.InferOutput<TSchema>>>;
  /**
   * Asks the client's LLM; the result is recorded, so the model is paid once per call. @deprecated SEP-2577 deprecates sampling as of protocol version 2026-07-28 (it still works): call your own LLM provider's API inside `ctx.step()` instead.
   */
  sample(params: CreateMessageRequestParams): Promise<SampleResult>;
  /**
   * Asks the client for its roots. @deprecated SEP-2577 deprecates roots as of protocol version 2026-07-28 (it still works): take the paths as tool arguments or from the server's configuration.
   */
  listRoots(): Promise<Root[]>;
}

/** A journaled handler: linear code over a {@link JournaledContext}, returning text or a tool result. */
export type JournaledHandler<TArgs> = (args: TArgs, ctx: JournaledContext) => HandlerResult | Promise<HandlerResult>;

/** The one cast seam of this module: a value this module recorded or validated has the type its step or question promises. */
function trusted<T>(value: unknown): T {
  return value as T;
}

function acceptedValue<T>(outcome: ElicitationResult<unknown>, api: string): T {
  const result = trusted<ElicitationResult<T>>(outcome);
  // Sampling and roots answers have no decline arm: readAnswer only ever accepts them.
  if (result.action !== 'accept')
    throw new McpResolveError('invalid_usage', `${api} was answered with ${result.action}.`, { data: { api } });
  return result.value;
}

/** The step a piece of code runs inside, if any: a step that asks would wait on itself. */
const insideStep = new AsyncLocalStorage<string>();

/**
 * Runs a journaled handler for one round: the handler runs from the top over the journal, and the
 * round's pass loop ends the round by the era's strategy.
 */
export async function runJournaled<TArgs>(
  handler: JournaledHandler<TArgs>,
  args: TArgs,
  ctx: ToolContext,
  timeoutMs: number,
  maxBytes: number,
): Promise<HandlerResult | InputRequiredResult> {
  const journal = journalOf(ctx);
  // The services of the round running this body: a body receives the context only.
  const round = roundServicesOf(ctx);
  const strategy = strategyFor(ctx, round, {
    ledger: journal,
    legacyTimeoutMs: timeoutMs,
    channels: callChannelsOf(round),
  });
  const run = new JournaledRun(ctx, journal, strategy, maxBytes);
  run.start(handler, args);
  try {
    const outcome = await runPasses(strategy, run);
    return isHandOff(outcome) ? outcome.result : outcome;
  } finally {
    run.close();
  }
}

/** One call of a journaled handler: its context's steps and questions, and its passes for the round's loop. */
class JournaledRun implements PassingWork<HandlerResult> {
  private readonly gate = new RoundGate();
  private readonly stepKey = occurrenceKeys();
  private readonly questionKey = occurrenceKeys();
  private readonly waiting = new Map<string, (outcome: Promise<ElicitationResult<unknown>>) => void>();
  private running: Promise<HandlerResult> | undefined;

  constructor(
    private readonly ctx: ToolContext,
    private readonly journal: Ledger,
    private readonly strategy: Pick<RoundStrategy, 'recall' | 'admit'>,
    private readonly maxBytes: number,
  ) {}

  /** Starts the handler over its journaled context (it runs until it finishes or waits on a question). */
  start<TArgs>(handler: JournaledHandler<TArgs>, args: TArgs): void {
    const journaledCtx: JournaledContext = {
      ...this.ctx,
      step: (name, fn) => this.step(name, fn),
      elicit: async (message, schema) => trusted(await this.ask(formQuestion(message, schema))),
      sample: async (params) => acceptedValue<SampleResult>(await this.ask(sampleMarker(params)), 'ctx.sample()'),
      listRoots: async () => acceptedValue<Root[]>(await this.ask(rootsMarker()), 'ctx.listRoots()'),
    };
    this.running = (async () => handler(args, journaledCtx))();
  }

  /** Closes the run: whatever the handler does next is ignored. */
  close(): void {
    this.gate.close();
  }

  private step<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    if (this.gate.isClosed) return never();
    const key = this.stepKey(name);
    const recorded = this.journal.step(key);
    if (recorded !== undefined) return Promise.resolve(trusted<T>(recorded[0]));
    return this.gate.track(async () => {
      const value = await insideStep.run(name, fn);
      let kept: T;
      try {
        kept = asRecorded(value, `ctx.step('${name}')`, 'ctx.step()');
        this.journal.recordStep(key, kept);
        await recordDurably(this.ctx, this.journal, key, this.maxBytes);
      } catch (error) {
        // Unrecordable (no JSON form; in a task: too large, or the run lost the task): the call stops here.
        this.gate.fail(error);
        return never<T>();
      }
      return kept;
    });
  }

  private async ask(marker: Ask): Promise<ElicitationResult<unknown>> {
    if (this.gate.isClosed) return never();
    const label = QUESTION_KINDS[askKind(marker)].journaledCall;
    const enclosing = insideStep.getStore();
    if (enclosing !== undefined) {
      this.gate.fail(
        new McpResolveError(
          'invalid_usage',
          `${label} inside ctx.step('${enclosing}'): a step must not ask (it would wait on its own round). Ask before or after the step.`,
          { data: { api: label } },
        ),
      );
      return never();
    }
    let question: Question;
    try {
      const rendered = renderQuestion(marker, label);
      question = { key: this.questionKey(pinOf(rendered)), label, ask: marker, rendered };
    } catch (error) {
      this.gate.fail(error); // a schema the wire cannot carry is a programming error, not something to catch
      return never();
    }
    const known = await this.strategy.recall(question, false);
    if (known !== undefined) return known;
    try {
      this.strategy.admit(question);
    } catch (error) {
      this.gate.fail(error); // a client that cannot be asked: a protocol error, not for the handler to catch
      return never();
    }
    // Settled with the answer (or the reason there is none) when the strategy has it: legacy only.
    return new Promise<ElicitationResult<unknown>>((resolve) => {
      this.waiting.set(question.key, resolve);
      this.gate.ask(question);
    });
  }

  async run(): Promise<PassReached<HandlerResult>> {
    const outcome = await this.gate.settle(this.running ?? never<HandlerResult>());
    switch (outcome.kind) {
      case 'fatal':
      case 'error':
        throw outcome.error;
      case 'done':
        if (isInputRequiredResult(outcome.value)) {
          throw new McpResolveError(
            'invalid_usage',
            'journaled(): the handler returned input_required itself; ask with ctx.elicit(), ctx.sample() or ctx.listRoots().',
            { data: { api: 'journaled()' } },
          );
        }
        return { kind: 'done', value: outcome.value };
      case 'suspended':
        return { kind: 'waiting', questions: outcome.questions };
    }
  }

  async settle(question: Question, outcome: Promise<ElicitationResult<unknown>>): Promise<void> {
    this.gate.answered(question.key);
    this.waiting.get(question.key)?.(outcome);
    this.waiting.delete(question.key);
  }
}
