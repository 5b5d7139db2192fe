/**
 * How the client's answers cross a fleet: only where they may, at most once, and never lost
 * silently. An answer to a push made by instance A may arrive at instance B, which relays it
 * through the shared bus (Redis pub/sub).
 *
 * - B relays an answer only when the shared store holds A's record of that push for the session
 *   named by the request's `Mcp-Session-Id` (taken once, so a second copy is dropped), when the
 *   answer is at most `maxRelayedAnswerBytes`, and when A listens now ({@link relayAnswer}). The
 *   body is published at most once: a PUBLISH that timed out may still be delivered, and each
 *   retry would put the whole answer through Redis again. An answer A cannot receive is refused at
 *   once (HTTP 503, "cannot reach this server"); a push A made stays A's to fail.
 * - A, while pushes wait, checks every second that messages still reach it and that the store still
 *   holds the sessions they belong to ({@link RelayWatch}); when messages may not reach it (its
 *   subscription is down, or the store failed every check for `RELAY_PATIENCE_MS`), or the store
 *   lost a session's records (an empty restart: no instance could relay its answers any more), it
 *   fails those pushes with `ANSWER_UNREACHABLE` (questions/push.ts), so the call ends at once
 *   with a clear error instead of hanging. One slow check fails nothing.
 */
import type { JSONRPCResponse } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import { ANSWER_UNREACHABLE } from '../../../questions/push.js';
import { jsonRpcErrorResponse } from '../../jsonRpcError.js';
import type { FleetMessage, LegacySessionFleet } from '../sessionFleet.js';
import { maskBackendFailure, viaStore } from './sessionStoreError.js';

/** How long an instance relaying an answer, or waiting for one, bears with a failing store's checks, in ms. */
const RELAY_PATIENCE_MS = 5_000;

/** How often a holder with waiting pushes checks that relays reach it, in ms. */
const WATCH_INTERVAL_MS = 1_000;

/** The default of `maxRelayedAnswerBytes`: the largest answer relayed to another instance (1 MiB). */
export const DEFAULT_MAX_RELAYED_ANSWER_BYTES = 1_048_576;

/**
 * Records in the shared store that this instance waits for the answer to push `wireId`; a store
 * failure fails the push (`ANSWER_UNREACHABLE`, the masked text; its cause reported under the
 * ref), since no other instance could relay its answer.
 */
export async function recordPush(
  fleet: LegacySessionFleet,
  push: { readonly sessionId: string; readonly wireId: string; readonly method: string },
  ttlMs: number,
  report: (error: unknown) => void,
): Promise<void> {
  const { sessionId, wireId, method } = push;
  try {
    await fleet.awaitAnswer(sessionId, wireId, { method }, ttlMs);
  } catch (error) {
    const masked = maskBackendFailure(`record the ${method} request`, error, report);
    throw new ProtocolError(ProtocolErrorCode.InternalError, masked, { reason: ANSWER_UNREACHABLE });
  }
}

/** An answer posted on session `sessionId` for a push of instance `target`, by a request whose owner digest is `owner`. */
export interface AnswerToRelay {
  readonly sessionId: string;
  readonly target: string;
  readonly message: JSONRPCResponse;
  /** The owner digest of the request that carried the answer (see sessionOwner.ts); `undefined`: anonymous. */
  readonly owner: string | undefined;
}

/**
 * Relays `answer` to the instance waiting for it if the store holds that push for the session
 * (dropped and reported otherwise), publishing its body at most once; resolves to `undefined`
 * once published or dropped, or to the response that refuses it (413 when larger than `maxBytes`,
 * 503 when its instance does not listen or the publish failed). An answer too large to relay is
 * replaced by a small error for the waiting push, so its call ends now.
 */
export async function relayAnswer(
  fleet: LegacySessionFleet,
  answer: AnswerToRelay,
  maxBytes: number,
  report: (error: unknown) => void,
): Promise<Response | undefined> {
  const { sessionId, target, message, owner } = answer;
  const from = owner === undefined ? {} : { owner };
  const wireId = String(message.id);
  // One take, named, however often it is tried: a try whose reply was lost has taken the push.
  const take = crypto.randomUUID();
  const push = await patiently(() =>
    viaStore('take the answered push', () => fleet.takeAnswer(sessionId, wireId, take)),
  );
  if (push === undefined) {
    report(
      new Error(`Dropped an answer: no push ${JSON.stringify(wireId)} of session ${sessionId} waits in the fleet`),
    );
    return undefined;
  }
  const size = new TextEncoder().encode(JSON.stringify(message)).byteLength;
  const listening = await patiently(() =>
    viaStore('check the instance waiting for an answer', () => fleet.listening(target)),
  );
  if (size > maxBytes) {
    if (listening) {
      const error = `The client's answer to the ${push.method} request was ${size} bytes; an answer relayed between instances may have at most ${maxBytes} bytes (maxRelayedAnswerBytes).`;
      const refused: FleetMessage = {
        kind: 'answer',
        sessionId,
        ...from,
        message: { jsonrpc: '2.0', id: message.id, error: { code: ProtocolErrorCode.InvalidParams, message: error } },
      };
      await fleet.send(target, refused).catch(() => undefined);
    }
    return jsonRpcErrorResponse(
      413,
      -32000,
      `Payload Too Large: the answer to the ${push.method} request is ${size} bytes; this server relays answers of at most ${maxBytes} bytes (maxRelayedAnswerBytes)`,
    );
  }
  if (listening) {
    try {
      await fleet.send(target, { kind: 'answer', sessionId, ...from, message });
      return undefined;
    } catch (error) {
      return jsonRpcErrorResponse(
        503,
        -32000,
        maskBackendFailure(`relay an answer to instance ${target}`, error, report),
      );
    }
  }
  return jsonRpcErrorResponse(
    503,
    -32000,
    `The answer to the ${push.method} request cannot reach this server. Instance ${target}, which asked, cannot receive it: it is not listening (it stopped, or lost its connection to the fleet). Call the tool again.`,
  );
}

/**
 * Runs `operation` again while the store fails, for up to {@link RELAY_PATIENCE_MS}: a stalled
 * store (a failover, a pause) comes back within it, and the answer's bytes wait here meanwhile.
 * Only a check is repeated, never a publish, so no retry puts the answer through the store twice.
 */
export async function patiently<T>(operation: () => Promise<T>): Promise<T> {
  const until = Date.now() + RELAY_PATIENCE_MS;
  for (;;) {
    try {
      return await operation();
    } catch (error) {
      if (Date.now() >= until) throw error;
      await new Promise((wake) => setTimeout(wake, 250));
    }
  }
}

/** The pushes a {@link RelayWatch} watches over, and whom it tells: the fleet link. */
export interface WatchedPushes {
  /** Whether any push of this instance waits for an answer. */
  waiting(): boolean;
  /** Relays may have been lost: fail every waiting push with `reason`. */
  interrupt(reason: string): void;
  /** Fails the waiting pushes whose sessions the shared store no longer holds (it lost its data). */
  verify(): Promise<void>;
  /** The server's error sink: a failed check's cause goes there, the pushes fail with the masked text. */
  report(error: unknown): void;
}

/** Checks, every second while pushes wait, that messages sent to this instance still reach it: `wake` after a push is sent, `stop` when the instance closes. */
export class RelayWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  /** Since when every check failed (`undefined`: the last one answered). */
  private failingSince: number | undefined;

  constructor(
    private readonly fleet: LegacySessionFleet,
    private readonly pushes: WatchedPushes,
  ) {}

  /** Schedules the next check (a push was just sent), unless one is due or the watch stopped. */
  wake(): void {
    if (this.stopped || this.timer !== undefined) return;
    this.timer = setTimeout(() => void this.check(), WATCH_INTERVAL_MS);
    this.timer.unref?.();
  }

  /** Stops checking (the instance closes). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async check(): Promise<void> {
    if (!this.pushes.waiting()) {
      this.timer = undefined;
      return;
    }
    const outcome = await this.fleet.listening().then(
      (listening) => ({ listening }),
      (error: unknown) => ({ error }),
    );
    if (!this.stopped) await this.settle(outcome);
    this.timer = undefined;
    this.wake();
  }

  /**
   * Acts on one check: "not listening" fails the waiting pushes at once (their answers cannot reach
   * this instance); a failed check does so only once checks have failed for {@link RELAY_PATIENCE_MS}
   * (a slow store, a starved process or a failover is waited out, as a relaying instance does), with
   * the masked text and the cause reported.
   */
  private async settle(outcome: { listening: boolean } | { error: unknown }): Promise<void> {
    const { pushes } = this;
    if ('error' in outcome) {
      this.failingSince ??= Date.now();
      if (Date.now() - this.failingSince < RELAY_PATIENCE_MS) return;
      this.failingSince = undefined;
      const report = (error: unknown): void => pushes.report(error);
      pushes.interrupt(maskBackendFailure('check that relays reach this instance', outcome.error, report));
      return;
    }
    this.failingSince = undefined;
    if (outcome.listening) return pushes.verify();
    pushes.interrupt(
      `The fleet relay to instance ${this.fleet.instanceId} was interrupted while this request waited for its answer ` +
        `(its subscription was down), so the answer may never arrive. Call the tool again.`,
    );
  }
}
