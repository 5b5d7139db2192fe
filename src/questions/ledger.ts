/**
 * The pinning ledger: what a multi-round call remembers between modern rounds, as the plaintext of
 * its sealed `requestState`. One format for every client of the questions layer (the resolver
 * engine and `journaled`):
 *
 * `{ "v": 2, "a": { key: [pin, response] }, "q": { key: pin }, "r"?: { key: [attempt, reason] }, "s"?: { key: [value] | [] }, "k"?: seed }`
 *
 * - `a`: recorded answers, each pinned to the exact question it answered ({@link pinOf});
 * - `q`: the questions the previous round asked, by pin (a response to anything else is ignored);
 * - `r`: of those, the ones asked again after a rejected answer: which attempt, and the reason shown;
 * - `s`: recorded step results (`journaled` only; `[]` stands for `undefined`);
 * - `k`: the call's random seed for default elicitation ids (stable across its rounds).
 */
import type { InputRequest } from '@modelcontextprotocol/server';

import type { RoundServices } from '../context.js';
import { McpResolveError } from '../errors.js';
import { readCountedAnswer } from './attempts.js';
import { reducedAnswer } from './bounds.js';
import type { ElicitationResult } from './markers.js';
import { newElicitationSeed } from './urlQuestion.js';
import { isRecord, ownEntry, setOwn } from '../ownKeys.js';
import { RejectedAnswer, readAnswerTo } from './read.js';
import { askedAgain, attemptsOf } from './reask.js';
import type { Question } from './render.js';

/** Version of the ledger format. */
const LEDGER_VERSION = 2;

type Recorded = [pin: string, response: unknown];
type Retry = [attempt: number, reason: string];

interface WireLedger {
  v: number;
  a: Record<string, Recorded>;
  q: Record<string, string>;
  r?: Record<string, Retry>;
  s?: Record<string, unknown[]>;
  /** Keys whose question changed since the round before (answered, then asked anew). */
  d?: string[];
  /** The call's random seed for default elicitation ids. */
  k?: string;
}

/**
 * Keys by name (or digest prefix) plus occurrence: `base`, then `base.2`, `base.3`, … for repeats
 * within one run. The one builder of occurrence keys (journaled steps and questions, suspending questions).
 */
export function occurrenceKeys(): (base: string) => string {
  const seen = new Map<string, number>();
  return (base) => {
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}.${count}`;
  };
}

/**
 * The pin of a question: the first 96 bits of its digest (base64url). Answers are pinned to it, and
 * `journaled`/`suspending` key their questions by it, so a reworded question is asked again. The state
 * is sealed, so the pin only has to tell questions apart, not resist forgery.
 */
export function pinOf(question: { readonly digest: string }): string {
  return question.digest.slice(0, 16);
}

/** One round's ledger: what the round carried in, and what it will carry out. */
export class Ledger {
  private readonly answers: Record<string, Recorded>;
  private readonly askedNow: Record<string, string> = {};
  private readonly retryNow: Record<string, Retry> = {};
  private readonly driftNow = new Set<string>();
  private readonly steps: Record<string, unknown[]>;
  /** The call's random seed for default elicitation ids (`k`), minted the first time one is needed. */
  private seed: string | undefined;

  private constructor(
    /** Whether the round carried state at all (a first round carries none). */
    readonly carried: boolean,
    answers: Record<string, Recorded>,
    private readonly askedBefore: Readonly<Record<string, string>>,
    steps: Record<string, unknown[]>,
    private readonly retriesBefore: Readonly<Record<string, Retry>> = {},
    private readonly driftBefore: ReadonlySet<string> = new Set(),
  ) {
    this.answers = answers;
    this.steps = steps;
  }

  /** The ledger of a call's first round. */
  static fresh(): Ledger {
    return new Ledger(false, {}, {}, {});
  }

  /** The ledger of a round whose carried state could not be read: nothing recorded, and no first-round leniency. */
  static blank(): Ledger {
    return new Ledger(true, {}, {}, {});
  }

  /** Decodes a carried ledger; `undefined` for anything this version did not write. */
  static decode(plaintext: string): Ledger | undefined {
    let wire: unknown;
    try {
      wire = JSON.parse(plaintext);
    } catch {
      return undefined;
    }
    if (!isRecord(wire) || wire.v !== LEDGER_VERSION || !isRecord(wire.a) || !isRecord(wire.q)) return undefined;
    if (wire.s !== undefined && !isRecord(wire.s)) return undefined;
    if (wire.r !== undefined && !isRecord(wire.r)) return undefined;
    const drift = Array.isArray(wire.d) ? wire.d.filter((key) => typeof key === 'string') : [];
    const answers: Record<string, Recorded> = {};
    for (const [key, entry] of Object.entries(wire.a))
      if (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string')
        setOwn(answers, key, [entry[0], entry[1]]);
    const asked: Record<string, string> = {};
    for (const [key, digest] of Object.entries(wire.q)) if (typeof digest === 'string') setOwn(asked, key, digest);
    const steps: Record<string, unknown[]> = {};
    for (const [key, entry] of Object.entries(wire.s ?? {})) {
      if (!Array.isArray(entry) || entry.length > 1) return undefined;
      setOwn(steps, key, entry);
    }
    const retries: Record<string, Retry> = {};
    for (const [key, entry] of Object.entries(wire.r ?? {}))
      if (Array.isArray(entry) && typeof entry[0] === 'number' && typeof entry[1] === 'string')
        setOwn(retries, key, [entry[0], entry[1]]);
    const ledger = new Ledger(true, answers, asked, steps, retries, new Set(drift));
    return Object.assign(ledger, typeof wire.k === 'string' && { seed: wire.k });
  }

  /** The call's seed for default elicitation ids: carried from the round before, or minted now and carried on. */
  elicitationSeed(): string {
    return (this.seed ??= newElicitationSeed());
  }

  /**
   * The answer this round already has for `question`: one recorded under its digest that still
   * reads as valid, or a response in this round's `responses` to the same question asked last
   * round. `unprompted` also accepts a response on a first round (a client answering up front).
   * A recorded answer for a changed question is forgotten; an invalid fresh response throws.
   * A fresh response counts against the attempts of the person `round` counts for (`readCountedAnswer`).
   */
  async recall(
    round: RoundServices,
    question: Question,
    responses: Readonly<Record<string, unknown>> | undefined,
    unprompted: boolean,
  ): Promise<ElicitationResult<unknown> | undefined> {
    const { key } = question;
    const digest = pinOf(question.rendered);
    const recorded = ownEntry(this.answers, key);
    if (recorded !== undefined) {
      if (recorded[0] === digest) {
        const outcome = await readAnswerTo(question, recorded[1]).catch(() => undefined);
        if (outcome !== undefined) return outcome;
      }
      // Drifted (the question changed) or no longer valid for it: forget it and ask again.
      delete this.answers[key];
    }
    const expected = this.carried ? ownEntry(this.askedBefore, key) === digest : unprompted;
    const answered = responses !== undefined && Object.hasOwn(responses, key);
    if (answered && this.carried && !expected && Object.hasOwn(this.askedBefore, key)) this.drifted(key);
    if (!expected || responses === undefined || !answered) return undefined;
    const response = responses[key];
    let outcome: ElicitationResult<unknown>;
    try {
      outcome = await readCountedAnswer(round, question, response);
    } catch (error) {
      // A rejected answer is not recorded: the same question is asked again, until its attempts run out.
      if (!(error instanceof RejectedAnswer)) throw error;
      const attempt = ownEntry(this.retriesBefore, key)?.[0] ?? 1;
      if (attempt >= attemptsOf(question.ask)) throw error;
      setOwn(this.retryNow, key, [attempt + 1, error.reason]);
      return undefined;
    }
    // Only what the question's schema holds is kept (sealed into every later round's state).
    setOwn(this.answers, key, [digest, reducedAnswer(question.rendered.request, response)]);
    return outcome;
  }

  /**
   * The person answered `key`'s question, yet it renders differently now. Once is a redeploy or a
   * reworded question (asked again); twice in a row is a question that changes every round, or a
   * fleet whose instances render it differently.
   */
  private drifted(key: string): void {
    if (!this.driftBefore.has(key)) {
      this.driftNow.add(key);
      return;
    }
    throw new McpResolveError(
      'nondeterministic_question',
      `Question '${key}' changed in two rounds in a row although it was answered each time: questions must be ` +
        'derived deterministically from tool arguments and earlier answers (docs/guides/resolvers.md, "The determinism rule"). ' +
        'Build its message and schema without Date.now(), random ids or other per-round values; ' +
        'on a fleet, every instance must run the same code and read the same data for it.',
      { data: { key } },
    );
  }

  /**
   * Notes that this round asks `question`, so next round accepts its answer; returns the request to
   * send. A question asked again after a rejected answer keeps its attempt count (and the reason)
   * whatever rounds come between, so a client cannot reset it by leaving the answer out.
   */
  ask(question: Question): InputRequest {
    const { key } = question;
    setOwn(this.askedNow, key, pinOf(question.rendered));
    let retry = ownEntry(this.retryNow, key);
    if (retry === undefined) {
      retry = ownEntry(this.retriesBefore, key);
      if (retry !== undefined) setOwn(this.retryNow, key, retry);
    }
    return retry === undefined ? question.rendered.request : askedAgain(question.rendered.request, retry[1]);
  }

  /** Which attempt at `key` this round asks: 1, or more when an earlier answer was rejected. */
  attempt(key: string): number {
    return ownEntry(this.retryNow, key)?.[0] ?? 1;
  }

  /** The answers this round holds, by question key, each with the pin of the question it answered. */
  answersRecorded(): Record<string, { readonly digest: string; readonly response: unknown }> {
    return Object.fromEntries(
      Object.entries(this.answers).map(([key, [digest, response]]) => [key, { digest, response }]),
    );
  }

  /** The recorded result of step `key` (`[value]`, or `[]` for `undefined`), if it ran in an earlier round. */
  step(key: string): readonly unknown[] | undefined {
    return ownEntry(this.steps, key);
  }

  /** Records the result of step `key` (a JSON value, or `undefined`). */
  recordStep(key: string, value: unknown): void {
    setOwn(this.steps, key, value === undefined ? [] : [value]);
  }

  /** The plaintext to seal into the next round's `requestState`. */
  encode(): string {
    const wire: WireLedger = { v: LEDGER_VERSION, a: this.answers, q: this.askedNow };
    const retries = Object.entries(this.retryNow).filter(([key]) => Object.hasOwn(this.askedNow, key));
    if (retries.length > 0) wire.r = Object.fromEntries(retries);
    if (Object.keys(this.steps).length > 0) wire.s = this.steps;
    const drift = [...this.driftNow].filter((key) => Object.hasOwn(this.askedNow, key));
    if (drift.length > 0) wire.d = drift;
    if (this.seed !== undefined) wire.k = this.seed;
    return JSON.stringify(wire);
  }
}
