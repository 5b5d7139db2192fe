/**
 * The task round strategy: the third way the questions layer gets a question answered, beside
 * `input_required` rounds (2026-07-28) and pushed requests (2025-11-25). A run waiting on questions
 * parks the task in `input_required` with them, each under a key the server mints (opaque to the
 * client, never reused within the task); the answers `tasks/update` records are recalled on the
 * next run, pinned to the exact question they answer, so a question that changed is asked again
 * and an answer is never reused for a different question. Each question goes through its channel
 * (`channels/choice.ts`): it parks as the request its channel gives, under its key, and the recorded
 * response is read as the answer the channel maps it to.
 */
import { inputRequired } from '@modelcontextprotocol/server';

import type { ChannelChoice } from '../channels/choice.js';
import type { RoundServices } from '../context.js';
import { pinOf } from '../questions/ledger.js';
import { ownEntry, setOwn } from '../ownKeys.js';
import type { ElicitationResult } from '../questions/markers.js';
import { readCountedAnswer } from '../questions/attempts.js';
import { RejectedAnswer } from '../questions/read.js';
import { attemptsOf } from '../questions/reask.js';
import type { Question } from '../questions/render.js';
import { identified } from '../questions/render.js';
import type { RoundEnd, RoundStrategy } from '../questions/strategy.js';
import type { PendingQuestion, TaskAnswer } from './store.js';

/** A fresh opaque key: unique over the task's lifetime, saying nothing about the resolver. */
function mintKey(): string {
  return `q-${crypto.randomUUID()}`;
}

/** One run of a task: answers from its record; a waiting run parks under fresh keys. */
export class TaskStrategy implements RoundStrategy {
  /** The questions the run parked on, by minted key (set by `end`). */
  readonly parked: Record<string, PendingQuestion> = {};
  /** The answers still valid after this run, by question key. */
  readonly answers: Record<string, TaskAnswer>;
  /** Why recorded answers were set aside, for the task's status message. */
  readonly rejected: string[] = [];
  /** Which attempt each question is at, by question key (1 when absent): written back with the task. */
  readonly attempts: Record<string, number>;

  constructor(
    /** The run's services: its answers count against the task's person (`readCountedAnswer`). */
    private readonly round: RoundServices,
    answers: Readonly<Record<string, TaskAnswer>>,
    /** The channel of each question (the task's client capabilities, the server's channels). */
    private readonly channelOf: ChannelChoice,
    attempts: Readonly<Record<string, number>> = {},
    /** The seed of default elicitation ids: the task id (random, and visible to its principal only). */
    private readonly seed: string = '',
  ) {
    this.answers = { ...answers };
    this.attempts = { ...attempts };
  }

  async recall(asked: Question): Promise<ElicitationResult<unknown> | undefined> {
    const question = identified(asked, () => this.seed);
    const channel = this.channelOf(question);
    if (channel.way === 'out-of-band') return channel.recall(question);
    const recorded = ownEntry(this.answers, question.key);
    if (recorded === undefined) return undefined;
    // The answer the recorded response stands for (none yet: the question is asked again).
    const response =
      recorded.digest === pinOf(question.rendered) ? await channel.answer(question, recorded.response) : undefined;
    if (response !== undefined) {
      try {
        return await readCountedAnswer(this.round, question, response);
      } catch (error) {
        // A rejected answer asks again, until the question's attempts run out: then the task fails with the reason.
        if (!(error instanceof RejectedAnswer)) throw error;
        const attempt = ownEntry(this.attempts, question.key) ?? 1;
        if (attempt >= attemptsOf(question.ask)) throw error;
        setOwn(this.attempts, question.key, attempt + 1);
        this.rejected.push(`${error.message} It is asked again.`);
      }
    }
    delete this.answers[question.key];
    return undefined;
  }

  admit(question: Question): void {
    this.channelOf(question).admit(question);
  }

  async end(pending: readonly Question[]): Promise<RoundEnd> {
    const inputRequests: Record<string, PendingQuestion['request']> = {};
    for (const asked of pending) {
      const question = identified(asked, () => this.seed);
      const channel = this.channelOf(question);
      if (channel.way === 'out-of-band') return { kind: 'handOff', result: await channel.handOff(question) };
      const key = mintKey();
      const request = await channel.request(question, question.rendered.request);
      this.parked[key] = { node: question.key, digest: pinOf(question.rendered), request };
      inputRequests[key] = request;
    }
    return { kind: 'reply', result: inputRequired({ inputRequests }) };
  }
}
