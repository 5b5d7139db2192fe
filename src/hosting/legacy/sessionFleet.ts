/**
 * What legacy (2025-11-25) sessions share across the instances of a fleet, as a small interface
 * the hosting layer talks to: session records with an idle expiry, which instance holds a
 * session's GET stream, and messages relayed between instances. `mcp-resolve/redis` implements it
 * over Redis; {@link createMemorySessionHub} implements it inside one process (tests, and several
 * handlers in one process).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

import { heldBytes } from '../../state/heldBytes.js';

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
  /** Takes the record of push `pushId` of session `sessionId`: `undefined` when the session or the push is unknown, or it was taken already. */
  takeAnswer(sessionId: string, pushId: string): Promise<PendingPush | undefined>;
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

/** Instances of one process sharing sessions in memory. */
export interface MemorySessionHub {
  /** A member instance (`instanceId` defaults to a random UUID). */
  member(instanceId?: string): LegacySessionFleet;
}

/**
 * Creates an in-memory hub: several handlers of one process act as a fleet (messages are
 * delivered asynchronously, as pub/sub would). Records expire by the same idle rule as in Redis.
 */
export function createMemorySessionHub(now: () => number = Date.now): MemorySessionHub {
  const records = new Map<string, { record: SharedSessionRecord; expiresAt: number; bytes: number; client: string }>();
  const holders = new Map<string, string>();
  const pushes = new Map<string, Map<string, { push: PendingPush; expiresAt: number }>>();
  const listeners = new Map<string, Set<(message: FleetMessage) => void>>();

  const post = (instanceId: string, message: FleetMessage): void => {
    for (const listener of listeners.get(instanceId) ?? []) setTimeout(() => listener(structuredClone(message)), 0);
  };
  const fresh = (sessionId: string) => {
    const entry = records.get(sessionId);
    if (entry !== undefined && entry.expiresAt <= now()) {
      records.delete(sessionId);
      return undefined;
    }
    return entry;
  };

  return {
    member(instanceId = crypto.randomUUID()) {
      return {
        instanceId,
        async save(sessionId, record, legacySessionIdleMs, admission) {
          const bytes = heldBytes(record);
          records.delete(sessionId);
          if (admission !== undefined) {
            for (const id of [...records.keys()]) fresh(id); // expired records release their share first
            const refusal = refuse([...records.values()], bytes, admission, now());
            if (refusal !== undefined) return refusal;
          }
          const client = admission?.client ?? '';
          const expiresAt = now() + legacySessionIdleMs;
          records.set(sessionId, { record: structuredClone(record), expiresAt, bytes, client });
          return undefined;
        },
        async load(sessionId, legacySessionIdleMs) {
          const entry = fresh(sessionId);
          if (entry === undefined) return undefined;
          entry.expiresAt = now() + legacySessionIdleMs;
          return structuredClone(entry.record);
        },
        async touch(sessionId, legacySessionIdleMs) {
          const entry = fresh(sessionId);
          if (entry !== undefined) entry.expiresAt = now() + legacySessionIdleMs;
        },
        async remove(sessionId) {
          records.delete(sessionId);
          holders.delete(sessionId);
          pushes.delete(sessionId);
        },
        async claimStream(sessionId) {
          holders.set(sessionId, instanceId);
        },
        async streamHolder(sessionId) {
          return holders.get(sessionId);
        },
        async awaitAnswer(sessionId, pushId, push, ttlMs) {
          const waiting = pushes.get(sessionId) ?? new Map<string, { push: PendingPush; expiresAt: number }>();
          pushes.set(sessionId, waiting.set(pushId, { push: { method: push.method }, expiresAt: now() + ttlMs }));
        },
        async answerAwaited(sessionId, pushId) {
          const entry = pushes.get(sessionId)?.get(pushId);
          return entry !== undefined && entry.expiresAt > now();
        },
        async takeAnswer(sessionId, pushId) {
          const waiting = pushes.get(sessionId);
          const entry = waiting?.get(pushId);
          waiting?.delete(pushId);
          if (waiting?.size === 0) pushes.delete(sessionId);
          if (fresh(sessionId) === undefined || entry === undefined || entry.expiresAt <= now()) return undefined;
          return entry.push;
        },
        async send(target, message) {
          if (!listeners.has(target)) throw new Error(`no instance ${JSON.stringify(target)} is listening`);
          post(target, message);
        },
        async broadcast(message) {
          for (const id of listeners.keys()) post(id, message);
        },
        async subscribe(onmessage) {
          const set = listeners.get(instanceId) ?? new Set();
          listeners.set(instanceId, set.add(onmessage));
          return async () => {
            set.delete(onmessage);
            if (set.size === 0) listeners.delete(instanceId);
          };
        },
        async listening(target = instanceId) {
          return listeners.has(target);
        },
      };
    },
  };
}

/** The limit a new record of `bytes` for `admission.client` would pass among `live` records, if any. */
function refuse(
  live: readonly { expiresAt: number; bytes: number; client: string }[],
  bytes: number,
  admission: SessionAdmission,
  now: number,
): SessionRefusal | undefined {
  const firstExpiry = (entries: readonly { expiresAt: number }[]): number =>
    Math.max(0, Math.min(...entries.map((entry) => entry.expiresAt)) - now);
  const mine = live.filter((entry) => entry.client === admission.client);
  if (admission.client !== '' && mine.length >= admission.maxLegacySessionsPerClient) {
    return { limit: 'maxLegacySessionsPerClient', retryAfterMs: firstExpiry(mine) };
  }
  if (live.length >= admission.maxLegacySessions) {
    return { limit: 'maxLegacySessions', retryAfterMs: firstExpiry(live) };
  }
  const total = live.reduce((sum, entry) => sum + entry.bytes, 0);
  if (total + bytes > admission.legacySessionBudgetHeldBytes) {
    return { limit: 'legacySessionBudgetHeldBytes', retryAfterMs: firstExpiry(live) };
  }
  return undefined;
}
