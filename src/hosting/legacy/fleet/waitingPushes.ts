/**
 * The pushes a session transport waits on, as the fleet link handles them: failed all at once when
 * their answers can no longer arrive (found by {@link OrphanedPushCheck}), or taken one by one as answers do.
 */
import type { RequestId } from '@modelcontextprotocol/server';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

import { ANSWER_UNREACHABLE } from '../../../questions/push.js';
import type { LegacySessionFleet } from '../sessionFleet.js';
import type { Session } from '../sessions/session.js';
import type { SessionTransport } from '../sessions/sessionTransport.js';

/** Who keeps the pushes waiting on this instance, as the parts that record and fail them see it: the fleet link. */
export interface PushKeeper {
  /** The sessions this instance holds (the session table's live set). */
  readonly live: ReadonlySet<Session>;
  /** How long a push's (and its session's) shared record is kept, in ms: the session's idle lifetime. */
  readonly legacySessionIdleMs: number;
  /** Told after a push is recorded and waits for its answer. */
  pushed(): void;
  /** Forgets the shared record of a push this instance no longer waits for. */
  forget(sessionId: string | undefined, wireId: string): void;
  /** The server's error sink (a push the store could not record, a message it could not relay, pushes failed). */
  report(error: unknown): void;
}

/**
 * Fails every push of `sessions` (those `which` names, when given) waiting for an answer the fleet
 * relay may have lost, so its call ends now (the `keeper` forgets each push's shared record);
 * resolves once those calls have answered the client (or their transports closed).
 */
export function failWaitingPushes(
  sessions: Iterable<Session>,
  reason: string,
  keeper: PushKeeper,
  which: (wireId: string) => boolean = () => true,
): Promise<void> {
  const answered: Array<Promise<void>> = [];
  let failed = 0;
  for (const session of sessions) {
    for (const [wireId, { localId: id, call }] of session.transport.pushes) {
      if (!which(wireId)) continue;
      session.transport.pushes.delete(wireId);
      if (call !== undefined) answered.push(session.transport.responded(call));
      keeper.forget(session.id, wireId);
      failed++;
      session.transport.onmessage?.({
        jsonrpc: '2.0',
        id,
        error: { code: ProtocolErrorCode.InternalError, message: reason, data: { reason: ANSWER_UNREACHABLE } },
      });
    }
  }
  if (failed > 0) keeper.report(new Error(`Failed ${failed} waiting push(es): ${reason}`));
  return Promise.all(answered).then(() => undefined);
}

/**
 * Takes the push that `wireId` names off `transport`'s waiting list (session `sessionId`): its
 * transport and local id, or `undefined` (reported, starting with `dropped`) when no such push waits.
 */
export function takeWaitingPush(
  transport: SessionTransport | undefined,
  sessionId: string,
  wireId: unknown,
  dropped: string,
  report: (error: unknown) => void,
): { transport: SessionTransport; localId: RequestId } | undefined {
  const localId = typeof wireId === 'string' ? transport?.pushes.get(wireId)?.localId : undefined;
  if (transport === undefined || localId === undefined || typeof wireId !== 'string') {
    report(new Error(`${dropped}: no push ${JSON.stringify(wireId)} of session ${sessionId} waits on this instance`));
    return undefined;
  }
  transport.pushes.delete(wireId);
  return { transport, localId };
}

/** Why a push fails when the shared store lost its session's records. */
const STORE_LOST =
  "The fleet's shared store lost this session's records while this request waited for its answer, so no instance can relay the answer. Call the tool again.";

/** Why a push fails when an instance took its answer to relay it and never delivered it. */
const RELAY_STOPPED =
  'Another instance of the fleet took the answer to this request to relay it here, and it never arrived: that instance stopped (or lost the fleet) while relaying it. Call the tool again.';

/**
 * The check the relay watch runs while pushes wait (its `verify`): it fails the waiting pushes
 * whose answers can no longer arrive: those of sessions the shared store lost (no instance can
 * relay their answers), and those whose record was taken by a relaying instance on two checks in a
 * row (a second apart) without the answer arriving: that instance stopped between taking the
 * record and publishing the answer.
 */
export class OrphanedPushCheck {
  /** Pushes whose record a check found taken while they still waited here: failed if still waiting at the next check. */
  private taken = new Set<string>();

  constructor(
    private readonly fleet: LegacySessionFleet,
    private readonly keeper: PushKeeper,
  ) {}

  /** Runs one check over the keeper's live sessions. */
  async run(): Promise<void> {
    const { fleet, keeper } = this;
    const lost: Session[] = [];
    const stillTaken = new Set<string>();
    for (const session of keeper.live) {
      if (session.id === undefined || session.transport.pushes.size === 0) continue;
      // A store that fails is the listening check's to report; only a record that is gone counts here.
      if ((await fleet.load(session.id, keeper.legacySessionIdleMs).catch(() => null)) === undefined) {
        lost.push(session);
        continue;
      }
      for (const wireId of session.transport.pushes.keys()) {
        if ((await fleet.answerAwaited(session.id, wireId).catch(() => true)) === false) stillTaken.add(wireId);
      }
    }
    const relayStopped = [...stillTaken].filter((wireId) => this.taken.has(wireId));
    this.taken = new Set([...stillTaken].filter((wireId) => !this.taken.has(wireId)));
    if (lost.length > 0) await failWaitingPushes(lost, STORE_LOST, keeper);
    if (relayStopped.length > 0) {
      const which = (wireId: string): boolean => relayStopped.includes(wireId);
      await failWaitingPushes(keeper.live, RELAY_STOPPED, keeper, which);
    }
  }
}
