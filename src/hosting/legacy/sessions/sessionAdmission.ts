/** Admission of legacy sessions against their limits: `admitSession` (this instance) and `fleetRefusal` (the shared store). */
import { jsonRpcErrorResponse } from '../../jsonRpcError.js';
import type { Session, SessionShare } from './session.js';
import type { LegacySessionFleet, SessionRefusal } from '../sessionFleet.js';

/** The `Retry-After` (seconds) of a refused session when no idle session will expire sooner. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;

/** The limits {@link admitSession} checks (the session table's options extend them). */
export interface AdmissionLimits {
  readonly legacySessionIdleMs: number;
  readonly maxLegacySessions: number;
  /** Total bytes of initialize params the sessions held here may keep. */
  readonly legacySessionBudgetHeldBytes: number;
  /** Most sessions one client may hold (checked here only without a fleet: the shared store checks it in one). */
  readonly maxLegacySessionsPerClient: number;
  readonly sessionFleet: LegacySessionFleet | undefined;
  readonly report: (error: unknown) => void;
}

/**
 * `undefined` when one more session holding `share` may open beside the `live` ones (in a fleet,
 * idle local copies are handed to `evict`, which removes them from `live`, to make room); else the
 * 503 (count, bytes) or 429 (this client's sessions) to answer.
 */
export function admitSession(
  live: ReadonlySet<Session>,
  share: SessionShare,
  limits: AdmissionLimits,
  evict: (session: Session) => void,
): Response | undefined {
  const {
    legacySessionIdleMs,
    maxLegacySessions,
    legacySessionBudgetHeldBytes,
    maxLegacySessionsPerClient,
    sessionFleet,
    report,
  } = limits;
  if (sessionFleet === undefined && share.client !== undefined) {
    const mine = [...live].filter((session) => session.client === share.client);
    if (mine.length >= maxLegacySessionsPerClient) {
      const retryAfter = retryAfterSeconds(mine, legacySessionIdleMs);
      report(new Error(`Refused a legacy session: its client holds ${maxLegacySessionsPerClient} sessions`));
      return jsonRpcErrorResponse(
        429,
        -32000,
        `Too Many Requests: this client holds its maximum of ${maxLegacySessionsPerClient} legacy sessions ` +
          `(maxLegacySessionsPerClient); end one with DELETE or retry in ${retryAfter} s`,
        { 'Retry-After': String(retryAfter) },
      );
    }
  }
  for (;;) {
    const overCount = live.size >= maxLegacySessions;
    const held = bytesHeldBy(live);
    if (!overCount && held + share.bytes <= legacySessionBudgetHeldBytes) return undefined;
    // In a fleet the local copies are a cache of the shared store: close the oldest idle one.
    const idle = sessionFleet === undefined ? undefined : oldestIdle(live, true);
    if (idle === undefined) {
      const retryAfter = retryAfterSeconds(live, legacySessionIdleMs);
      report(
        new Error(
          `Refused a legacy session: ${overCount ? `${maxLegacySessions} sessions are live` : `${held} bytes are held`}`,
        ),
      );
      const message = overCount
        ? `Service Unavailable: this server holds its maximum of ${maxLegacySessions} legacy sessions; retry in ${retryAfter} s`
        : `Service Unavailable: legacy sessions hold ${held} of the ${legacySessionBudgetHeldBytes} bytes they may keep ` +
          `(legacySessionBudgetHeldBytes); retry in ${retryAfter} s`;
      return jsonRpcErrorResponse(503, -32000, message, { 'Retry-After': String(retryAfter) });
    }
    evict(idle); // a local copy only: the session lives on in the shared store
  }
}

/** The limits a shared-store refusal names, and where it is reported. */
export interface FleetLimits {
  readonly maxLegacySessions: number;
  readonly legacySessionBudgetHeldBytes: number;
  readonly maxLegacySessionsPerClient: number;
  readonly onerror: (error: Error) => void;
}

/** The answer to a session the shared store refused: 429 for the client's own limit, else 503. */
export function fleetRefusal(refusal: SessionRefusal, options: FleetLimits): Response {
  const retryAfter = Number.isFinite(refusal.retryAfterMs) ? Math.max(1, Math.ceil(refusal.retryAfterMs / 1000)) : 30;
  const headers = { 'Retry-After': String(retryAfter) };
  let status = 503;
  let message: string;
  switch (refusal.limit) {
    case 'maxLegacySessionsPerClient':
      status = 429;
      message =
        `Too Many Requests: this client holds its maximum of ${options.maxLegacySessionsPerClient} legacy sessions ` +
        `(maxLegacySessionsPerClient); end one with DELETE or retry in ${retryAfter} s`;
      break;
    case 'maxLegacySessions':
      message =
        `Service Unavailable: the fleet holds its maximum of ${options.maxLegacySessions} legacy sessions ` +
        `(maxLegacySessions); retry in ${retryAfter} s`;
      break;
    case 'legacySessionBudgetHeldBytes':
      message =
        `Service Unavailable: the fleet's legacy sessions hold the ${options.legacySessionBudgetHeldBytes} bytes they may keep ` +
        `(legacySessionBudgetHeldBytes); retry in ${retryAfter} s`;
      break;
  }
  try {
    options.onerror(new Error(`Refused a legacy session: the shared store is at ${refusal.limit}`));
  } catch {
    // Reporting must never change a response.
  }
  return jsonRpcErrorResponse(status, -32000, message, headers);
}

function bytesHeldBy(sessions: Iterable<Session>): number {
  let held = 0;
  for (const session of sessions) held += session.bytes;
  return held;
}

/** The session idle longest among `sessions`; with `evictable`, only one with no GET stream open here. */
function oldestIdle(sessions: Iterable<Session>, evictable = false): Session | undefined {
  let oldest: Session | undefined;
  for (const session of sessions) {
    if (session.busy > 0 || (evictable && session.transport.standaloneStreams > 0)) continue;
    if (oldest === undefined || session.idleSince < oldest.idleSince) oldest = session;
  }
  return oldest;
}

function retryAfterSeconds(sessions: Iterable<Session>, legacySessionIdleMs: number): number {
  const idle = oldestIdle(sessions);
  if (idle === undefined || !Number.isFinite(legacySessionIdleMs)) return DEFAULT_RETRY_AFTER_SECONDS;
  return Math.max(1, Math.ceil((idle.idleSince + legacySessionIdleMs - Date.now()) / 1000));
}
