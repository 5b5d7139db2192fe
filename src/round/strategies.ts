/**
 * The strategies of the two eras: how a round of a call gets its questions answered on 2026-07-28
 * (answers come from the ledger and the round's `inputResponses`; a round waiting on questions
 * ends with `input_required`) and on 2025-11-25 (questions are pushed one by one, in process).
 * Each question goes through its channel (`channels/choice.ts`); neither strategy knows which.
 */
import { inputRequired, type InputRequest } from '@modelcontextprotocol/server';

import type { RoundServices, ToolContext } from '../context.js';
import { callChannelsOf, type CallChannels, type InBandChannel } from '../channels/channel.js';
import { chooseChannels, type ChannelChoice } from '../channels/choice.js';
import { assertAnswerSize, DEFAULT_MAX_ANSWER_BYTES } from '../questions/bounds.js';
import { Ledger } from '../questions/ledger.js';
import type { ElicitationResult } from '../questions/markers.js';
import { DEFAULT_LEGACY_QUESTION_TIMEOUT_MS, pushQuestion } from '../questions/push.js';
import { shownWith } from '../questions/reask.js';
import { questionKind } from '../questions/questionKind.js';
import { identified, onModernWire, type Question } from '../questions/render.js';
import type { Answer, RoundEnd, RoundStrategy } from '../questions/strategy.js';
import { newElicitationSeed } from '../questions/urlQuestion.js';
import { setOwn } from '../ownKeys.js';

/** The largest answer the server accepts on this request (`maxAnswerBytes`). */
export function limitOf(round: RoundServices): number {
  return round.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
}

/** `responses` with `answer` read under `key` instead of what the client sent (`undefined`: left out). */
function withAnswer(
  responses: Readonly<Record<string, unknown>>,
  key: string,
  answer: unknown,
): Readonly<Record<string, unknown>> {
  if (answer === responses[key]) return responses;
  const replaced: Record<string, unknown> = {};
  for (const [other, value] of Object.entries(responses)) if (other !== key) setOwn(replaced, other, value);
  if (answer !== undefined) setOwn(replaced, key, answer);
  return replaced;
}

/** Modern (2026-07-28): answers come from the ledger and this round's `inputResponses`; a round ends with `input_required`. */
export function modernStrategy(
  ctx: ToolContext,
  round: RoundServices,
  ledger: Ledger,
  channelOf: ChannelChoice,
): RoundStrategy {
  const { trace } = round;
  return {
    async recall(asked, unprompted) {
      // A URL question's default id comes from the call's seed, carried in the sealed state.
      const question = identified(asked, () => ledger.elicitationSeed());
      const channel = channelOf(question);
      let responses = ctx.mcpReq.inputResponses;
      const answered = responses !== undefined && Object.hasOwn(responses, question.key);
      if (answered) assertAnswerSize(`Resolver '${question.label}'`, responses![question.key], limitOf(round));
      if (channel.way === 'out-of-band') return channel.recall(question);
      if (answered)
        responses = withAnswer(responses!, question.key, await channel.answer(question, responses![question.key]));
      const outcome = await ledger.recall(round, question, responses, unprompted);
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
      channelOf(question).admit(question);
    },
    async end(pending) {
      const inputRequests: Record<string, InputRequest> = {};
      for (const asked of pending) {
        // Mints the seed now, so the id the answer reads next round is this call's.
        const question = identified(asked, () => ledger.elicitationSeed());
        const channel = channelOf(question);
        if (channel.way === 'out-of-band') return { kind: 'handOff', result: await channel.handOff(question) };
        inputRequests[question.key] = onModernWire(await channel.request(question, ledger.ask(question)));
        trace?.asked(question.key, questionKind(question.ask), ledger.attempt(question.key));
      }
      return { kind: 'reply', result: inputRequired({ inputRequests, requestState: ledger.encode() }) };
    },
  };
}

/**
 * Legacy (2025-11-25): nothing is known in advance; a round's questions are pushed one by one, in
 * order, and a decline that ends the call stops them (modern sends them together, before any answer).
 * One legacy call is one round: `seed` is its own random value (URL questions' default ids).
 */
export function legacyStrategy(
  ctx: ToolContext,
  round: RoundServices,
  timeoutMs: number,
  seed: () => string,
  channelOf: ChannelChoice,
): RoundStrategy {
  /** Pushes `question` through its in-band `channel`: the request it gives, its response read as in-band. */
  const push = async (channel: InBandChannel, question: Question) => {
    if (channel.push !== undefined) return channel.push(question, timeoutMs);
    // The digest stays the question's: the answer is the same whatever the channel adds to the request.
    const request = await channel.request(question, question.rendered.request);
    return pushQuestion(ctx, round, shownWith(question, request), timeoutMs);
  };
  return {
    async recall(question) {
      const channel = channelOf(question);
      return channel.way === 'out-of-band' ? channel.recall(question) : undefined;
    },
    admit(question) {
      channelOf(question).admit(question);
    },
    async end(pending) {
      const answers: Answer[] = [];
      for (const asked of pending) {
        const question = identified(asked, seed);
        const channel = channelOf(question);
        if (channel.way === 'out-of-band') return { kind: 'handOff', result: await channel.handOff(question) };
        const outcome = push(channel, question);
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
  /** The call's channels beyond in-band, when the server has any (see `channels/`). */
  readonly channels?: CallChannels | undefined;
}

/** The strategy for the era of `ctx`, with the request's services `round`. */
export function strategyFor(ctx: ToolContext, round: RoundServices, options: StrategyOptions): RoundStrategy {
  const legacyTimeoutMs = options.legacyTimeoutMs ?? DEFAULT_LEGACY_QUESTION_TIMEOUT_MS;
  const { ledger, channels } = options;
  if (ctx.era === 'modern') {
    // The call's secret is the ledger's seed: random per call, sealed in its requestState.
    const secret = () => ledger.elicitationSeed();
    return modernStrategy(ctx, round, ledger, chooseChannels({ ctx, round, secret }, channels));
  }
  let seed: string | undefined;
  const secret = (): string => (seed ??= newElicitationSeed());
  return legacyStrategy(ctx, round, legacyTimeoutMs, secret, chooseChannels({ ctx, round, secret }, channels));
}

/**
 * A round's strategy, built the first time a question uses it (a call that awaits a resolver but
 * asks nothing never decodes its ledger). Made by the round from values; it never calls back.
 */
export class StrategyOnDemand implements RoundStrategy {
  #built: RoundStrategy | undefined;
  /** The call's ledger, once the strategy is built (a task created on this round records its answers). */
  ledger: Ledger | undefined;

  constructor(
    private readonly ctx: ToolContext,
    private readonly round: RoundServices,
    /** The plaintext the round's `requestState` carried, when it carried one. */
    private readonly plaintext: string | undefined,
    private readonly legacyTimeoutMs: number | undefined,
  ) {}

  private strategy(): RoundStrategy {
    if (this.#built !== undefined) return this.#built;
    // A carried ledger this version cannot read means "no progress yet": the call starts over.
    const ledger = this.plaintext === undefined ? Ledger.fresh() : (Ledger.decode(this.plaintext) ?? Ledger.blank());
    return (this.#built = strategyFor(this.ctx, this.round, {
      ledger: (this.ledger = ledger),
      legacyTimeoutMs: this.legacyTimeoutMs,
      channels: callChannelsOf(this.round),
    }));
  }

  recall(question: Question, unprompted: boolean): Promise<ElicitationResult<unknown> | undefined> {
    return this.strategy().recall(question, unprompted);
  }

  admit(question: Question): void {
    this.strategy().admit(question);
  }

  end(pending: readonly Question[]): Promise<RoundEnd> {
    return this.strategy().end(pending);
  }
}
