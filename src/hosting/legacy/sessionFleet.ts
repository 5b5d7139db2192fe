/**
 * What legacy (2025-11-25) sessions share across the instances of a fleet, as a small interface
 * the hosting layer talks to: session records with an idle expiry, which instance holds a
 * session's GET stream, and messages relayed between instances. `mcp-resolve/redis` implements it
 * over Redis; `createMemorySessionHub` (memorySessionHub.ts) implements it inside one process (tests,
 * and several handlers in one process).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/** What another instance needs to serve a session: the client's `initialize` params, replayed there. */
export interface SharedSessionRecord {
  /** The `params` of the client's `initialize` request (protocol version, capabilities, client info). */
  readonly initialize: Readonly<Record<string, unknown>>;
  /** SHA-256 digest (hex) of the principal that opened the session, never the principal; absent: anonymous. */
  readonly owner?: string;
  /** The secret that signs the event ids of the session's resumable streams (hex); absent: none resumes. */
  readonly streamKey?: string;
}

/** The limits a new session is saved under, checked and counted atomically in the shared store. */
export interface SessionAdmission {
  /** Opaque id of the client the session counts against (a hash of its principal or address); `''`: none (behind a proxy), only `maxLegacySessions` and `legacySessionBudgetHeldBytes` apply. */
  readonly client: string;
  /** Most sessions the store holds at once (the `maxLegacySessions` option). */
  readonly maxLegacySessions: number;
  /** Most held bytes of records (`heldBytes`: UTF-8 JSON plus 64 per object, array and key) the store holds at once (the `legacySessionBudgetHeldBytes` option). */
  readonly legacySessionBudgetHeldBytes: number;
  /** Most sessions one client holds at once (the `maxLegacySessionsPerClient` option). */
  readonly maxLegacySessionsPerClient: number;
}

/** Why the shared store refused to save a new session. */
export interface SessionRefusal {
  /** The option whose limit the session would pass. */
  readonly limit: 'maxLegacySessions' | 'legacySessionBudgetHeldBytes' | 'maxLegacySessionsPerClient';
  /** Milliseconds until the first session counted against that limit expires (`Infinity`: none expires). */
  readonly retryAfterMs: number;
}

/** A list-changed or resource-updated notification published to every instance. */
export type FleetNotification =
  | { readonly kind: 'toolsChanged' | 'promptsChanged' | 'resourcesChanged' }
  | { readonly kind: 'resourceUpdated'; readonly uri: string };

/** A message between instances. */
export type FleetMessage =
  /** The client's answer to a push the addressed instance sent, with the owner digest of its request (absent: anonymous). */
  | { readonly kind: 'answer'; readonly sessionId: string; readonly message: JSONRPCMessage; readonly owner?: string }
  /** A server-to-client message for the session's GET stream, which the addressed instance holds. */
  | { readonly kind: 'deliver'; readonly sessionId: string; readonly message: JSONRPCMessage }
  /** The session was ended (DELETE): every instance closes its copy. */
  | { readonly kind: 'ended'; readonly sessionId: string }
  /** A notification for every session with an open GET stream. */
  | { readonly kind: 'notify'; readonly notification: FleetNotification };

/** The shared session records: who the client is, which instance holds its GET stream. `legacySessionIdleMs` is the idle lifetime (the hosting option; `Infinity`: none); a record counts against the limits it was saved under until removed or expired. */
export interface SharedSessionStore {
  /**
   * Records a new session, unless `admission`'s limits (counted over the live records, expired
   * ones released first) would be passed: then nothing is saved and the refusal says which.
   */
  save(
    sessionId: string,
    record: SharedSessionRecord,
    legacySessionIdleMs: number,
    admission?: SessionAdmission,
  ): Promise<SessionRefusal | undefined>;
  /** Reads a session and restarts its idle clock; `undefined` when unknown or expired. */
  load(sessionId: string, legacySessionIdleMs: number): Promise<SharedSessionRecord | undefined>;
  /** Restarts a session's idle clock. */
  touch(sessionId: string, legacySessionIdleMs: number): Promise<void>;
  /** Forgets a session. */
  remove(sessionId: string): Promise<void>;
  /** Records that this instance now holds the session's GET stream. */
  claimStream(sessionId: string, legacySessionIdleMs: number): Promise<void>;
  /** The instance holding the session's GET stream, if any. */
  streamHolder(sessionId: string): Promise<string | undefined>;
}

/** A push (a server-to-client request) waiting for the client's answer, as the shared store records it. */
export interface PendingPush {
  /** The pushed request's method (e.g. `elicitation/create`), for messages about its answer. */
  readonly method: string;
}

/**
 * Which instance waits for the answer to which push: an answer is relayed only to the instance
 * that recorded its push, only while its session exists, and at most once.
 */
export interface SharedPushStore {
  /** Records that this instance waits for the answer to push `pushId` (`mcpr:<this instance>:<random>`) of session `sessionId`, for at most `ttlMs`. */
  awaitAnswer(sessionId: string, pushId: string, push: PendingPush, ttlMs: number): Promise<void>;
  /**
   * Takes the record of push `pushId` of session `sessionId`: `undefined` when the session or the
   * push is unknown, or it was taken already. A take named `take` may be asked again for a minute
   * (one whose reply was lost, e.g. to a deadline that expired as the store answered): it gets the
   * same record again, and every other take gets `undefined`.
   */
  takeAnswer(sessionId: string, pushId: string, take?: string): Promise<PendingPush | undefined>;
  /** Whether push `pushId` of session `sessionId` still waits (recorded, not taken, not expired); takes nothing. */
  answerAwaited(sessionId: string, pushId: string): Promise<boolean>;
}

/** The messages between instances: one addressed to an instance, or broadcast to all. */
export interface FleetBus {
  /** This instance's id: unique in the fleet, stable for the life of the process. */
  readonly instanceId: string;
  /** Sends a message to one instance; rejects when that instance is not listening (nothing was delivered). */
  send(instanceId: string, message: FleetMessage): Promise<void>;
  /** Sends a message to every instance, this one included. */
  broadcast(message: FleetMessage): Promise<void>;
  /** Starts receiving the messages addressed to this instance or broadcast; resolves to a stop function. */
  subscribe(onmessage: (message: FleetMessage) => void): Promise<() => Promise<void>>;
  /** Whether messages sent to `instanceId` (default: this instance) reach it now; `false` (or a rejection) while its subscription is down. */
  listening(instanceId?: string): Promise<boolean>;
}

/**
 * One instance's view of what legacy sessions share: the records ({@link SharedSessionStore}), the
 * pushes waiting for answers ({@link SharedPushStore}) and the messages between instances
 * ({@link FleetBus}). A backend implements all three, usually over one service (Redis: keys and
 * pub/sub); the library's contract tests check them.
 */
export interface LegacySessionFleet extends SharedSessionStore, SharedPushStore, FleetBus {}

/** How long a named take of a push may be asked again (see `SharedPushStore.takeAnswer`), in ms. */
export const RETAKE_MS = 60_000;
