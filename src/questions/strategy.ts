/**
 * Round strategies: how one era gets a question answered, and {@link runPasses}, the loop that
 * lets the strategy end a round. A client of the questions layer (the resolver engine,
 * `journaled`) finds its questions, asks the strategy whether an answer is already known
 * (`recall`), lets it refuse what cannot be asked (`admit`), and when a pass is left waiting on
 * questions hands them to `end`: the modern strategy replies `input_required` with the ledger to
 * seal; the legacy strategy pushes them and returns the answers, and the next pass runs.
 *
 * Another way of asking (a task parked in `input_required`, answered through `tasks/update`) is
 * a third implementation of {@link RoundStrategy}; nothing else changes.
 */
import type { InputRequest, InputRequiredResult } from '@modelcontextprotocol/server';
import { inputRequired } from '@modelcontextprotocol/server';

import { answerLimit, requestTrace, type ToolContext } from '../context.js';
import { assertAnswerSize, DEFAULT_MAX_ANSWER_BYTES } from './bounds.js';
import { questionKind } from './questionKind.js';
import { assertBackChannel, assertCapability } from './capabilities.js';
import type { Ledger } from './ledger.js';
import type { ElicitationResult } from './markers.js';
import { DEFAULT_LEGACY_QUESTION_TIMEOUT_MS, pushQuestion } from './push.js';
import type { CallPages } from './pages.js';
import { pageChannelOf } from './pages.js';
import { LinkAnswers, pageResponses, pageUrlRequestOf } from './pageRound.js';
import { pushPageQuestion } from './pagePush.js';
import type { Question } from './render.js';
import { identified, onModernWire } from './render.js';
import { newElicitationSeed } from './urlQuestion.js';

/** An answer a strategy obtained for a pending question (a rejection says why there is none). */
export interface Answer {
  readonly question: Question;
  readonly outcome: Promise<ElicitationResult<unknown>>;
}

/** How a round that is waiting on questions ends. */
export type RoundEnd =
  /** Reply to the client now (modern: `input_required`, its `requestState` the plaintext ledger to seal). */
  | { readonly kind: 'reply'; readonly result: InputRequiredResult }
  /** Go on in process with these answers (legacy: the pushes were answered), in the order asked. */
  | { readonly kind: 'answered'; readonly answers: readonly Answer[] };

/** How one era gets questions answered. */
export interface RoundStrategy {
  /** The answer this round already has for `question`; `unprompted` accepts one the client sent before being asked. */
  recall(question: Question, unprompted: boolean): Promise<ElicitationResult<unknown> | undefined>;
  /** Throws the protocol error (-32021, or no channel) when `question` cannot be asked here; nothing is sent. */
  admit(question: Question): void;
  /** Ends a round whose run waits on `pending` (every one admitted), in the order found. */
  end(pending: readonly Question[]): Promise<RoundEnd>;
}

/** Modern (2026-07-28): answers come from the ledger and this round's `inputResponses`; a round ends with `input_required`. */
export function modernStrategy(ctx: ToolContext, ledger: Ledger, pages?: CallPages): RoundStrategy {
  const trace = ctx[requestTrace];
  const links = pages && new LinkAnswers(pages);
  return {
    async recall(asked, unprompted) {
      // A URL question's default id comes from the call's seed, carried in the sealed state.
      const question = identified(asked, () => ledger.elicitationSeed());
      let responses = ctx.mcpReq.inputResponses;
      if (responses !== undefined && Object.hasOwn(responses, question.key)) {
        assertAnswerSize(`Resolver '${question.label}'`, responses[question.key], limitOf(ctx));
      }
      const channel = pages && pageChannelOf(ctx.clientCapabilities, question);
      if (links !== undefined && channel === 'link') return links.recall(question);
      if (pages !== undefined && channel === 'url') responses = await pageResponses(pages, question, responses);
      const outcome = await ledger.recall(question, responses, unprompted);
      if (
        trace !== undefined &&
        outcome !== undefined &&
        responses !== undefined &&
        Object.hasOwn(responses, question.key)
      )
        trace.answered(question.key, questionKind(question.ask), outcome.action);
      return outcome;
    },
    admit(question) {
      if (pages !== undefined && pageChannelOf(ctx.clientCapabilities, question) !== undefined) return;
      assertCapability(ctx.clientCapabilities, question.rendered, question.label);
    },
    async end(pending) {
      const inputRequests: Record<string, InputRequest> = {};
      for (const question of pending) {
        const channel = pages && pageChannelOf(ctx.clientCapabilities, question);
        if (pages !== undefined && channel !== undefined) {
          const url = await pages.pages.open(pages.call, question, ctx.http?.req?.url);
          if (channel === 'link') throw await links!.linkError(question, url);
          ledger.ask(question);
          inputRequests[question.key] = onModernWire(pageUrlRequestOf(question, url));
          trace?.asked(question.key, questionKind(question.ask), ledger.attempt(question.key));
          continue;
        }
        // Mints the seed now, so the id the answer reads next round is this call's.
        inputRequests[question.key] = onModernWire(ledger.ask(identified(question, () => ledger.elicitationSeed())));
        trace?.asked(question.key, questionKind(question.ask), ledger.attempt(question.key));
      }
      return { kind: 'reply', result: inputRequired({ inputRequests, requestState: ledger.encode() }) };
    },
  };
}

/** The largest answer the server accepts on this request (`maxAnswerBytes`). */
export function limitOf(ctx: ToolContext): number {
  return ctx[answerLimit] ?? DEFAULT_MAX_ANSWER_BYTES;
}

/**
 * Legacy (2025-11-25): nothing is known in advance; a round's questions are pushed one by one, in
 * order, and a decline that ends the call stops them (modern sends them together, before any answer).
 */
export function legacyStrategy(ctx: ToolContext, timeoutMs: number, pages?: CallPages): RoundStrategy {
  // One legacy call is one round: its URL questions' default ids come from a seed of its own.
  let seed: string | undefined;
  const seedOf = (): string => (seed ??= newElicitationSeed());
  const channelOf = (question: Question) => pages && pageChannelOf(ctx.clientCapabilities, question);
  const links = pages && new LinkAnswers(pages);
  return {
    recall: async (question) =>
      links !== undefined && channelOf(question) === 'link' ? links.recall(question) : undefined,
    admit(question) {
      const channel = channelOf(question);
      if (channel !== 'link') assertBackChannel(ctx.clientCapabilities, question.label);
      if (channel === undefined) assertCapability(ctx.clientCapabilities, question.rendered, question.label);
    },
    async end(pending) {
      const answers: Answer[] = [];
      for (const asked of pending) {
        const question = identified(asked, seedOf);
        const channel = channelOf(question);
        if (pages !== undefined && links !== undefined && channel === 'link') {
          throw await links.linkError(question, await pages.pages.open(pages.call, question, ctx.http?.req?.url));
        }
        const outcome =
          pages !== undefined && channel === 'url'
            ? pushPageQuestion(ctx, question, pages, timeoutMs)
            : pushQuestion(ctx, question, timeoutMs);
        answers.push({ question, outcome });
        // A failed push, or a decline that ends the call, ends the round: later questions are not sent.
        const goOn = await outcome.then(
          (answer) => answer.action === 'accept' || question.declineEndsCall !== true,
          () => false,
        );
        if (!goOn) break;
      }
      return { kind: 'answered', answers };
    },
  };
}

/** Options of {@link strategyFor}. */
export interface StrategyOptions {
  /** The call's ledger (modern rounds read and write it). */
  readonly ledger: Ledger;
  /** How long a legacy push waits for the human, in ms. */
  readonly legacyTimeoutMs?: number;
  /** The call's answer pages, when the server hosts them: form questions reach clients without forms there. */
  readonly pages?: CallPages | undefined;
}

/** The strategy for the era of `ctx`. */
export function strategyFor(ctx: ToolContext, options: StrategyOptions): RoundStrategy {
  return ctx.era === 'modern'
    ? modernStrategy(ctx, options.ledger, options.pages)
    : legacyStrategy(ctx, options.legacyTimeoutMs ?? DEFAULT_LEGACY_QUESTION_TIMEOUT_MS, options.pages);
}

/** What one pass reached: the work's value, or questions it waits on. */
export type PassReached<T> =
  { readonly kind: 'done'; readonly value: T } | { readonly kind: 'waiting'; readonly questions: readonly Question[] };

/** A client of the questions layer (the resolver engine, `journaled`), seen from {@link runPasses}. */
export interface PassingWork<T> {
  /** Runs one pass (or goes on running) until done or waiting on questions. */
  run(): Promise<PassReached<T>>;
  /** Hands a waiting question its answer (a rejection carries the reason there is none) before the next pass. */
  settle(question: Question, outcome: Promise<ElicitationResult<unknown>>): Promise<void>;
}

/** Passes `work` to its value, or to the `input_required` reply with which `strategy` ends this round. */
export async function runPasses<T>(
  strategy: Pick<RoundStrategy, 'end'>,
  work: PassingWork<T>,
): Promise<T | InputRequiredResult> {
  for (;;) {
    const reached = await work.run();
    if (reached.kind === 'done') return reached.value;
    const end = await strategy.end(reached.questions);
    if (end.kind === 'reply') return end.result;
    for (const answer of end.answers) await work.settle(answer.question, answer.outcome);
  }
}
