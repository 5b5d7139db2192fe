/**
 * The in-memory {@link LegacySessionFleet}: handlers of one process sharing legacy sessions as the
 * instances of a fleet do (tests, and several handlers in one process); `mcp-resolve/redis` shares
 * them between processes.
 */
import { heldBytes } from '../../state/heldBytes.js';
import type {
  FleetMessage,
  LegacySessionFleet,
  PendingPush,
  SessionAdmission,
  SessionRefusal,
  SharedSessionRecord,
} from './sessionFleet.js';
import { RETAKE_MS } from './sessionFleet.js';

/** Instances of one process sharing sessions in memory. */
export interface MemorySessionHub {
  /** A member instance (`instanceId` defaults to a random UUID). */
  member(instanceId?: string): LegacySessionFleet;
}

/** A push waiting for its answer until `expiresAt`. */
interface WaitingPush {
  readonly push: PendingPush;
  readonly expiresAt: number;
}

/** A named take of a push, which may be asked again until `expiresAt` (see `SharedPushStore.takeAnswer`). */
interface NamedTake extends WaitingPush {
  readonly take: string;
}

/** The named take of `key` kept at `now`, from `taken` (oldest first), which forgets the expired ones. */
function keptTake(taken: Map<string, NamedTake>, key: string, now: number): NamedTake | undefined {
  for (const [older, entry] of taken) {
    if (entry.expiresAt > now) break;
    taken.delete(older);
  }
  return taken.get(key);
}

/**
 * Creates an in-memory hub: several handlers of one process act as a fleet (messages are
 * delivered asynchronously, as pub/sub would). Records expire by the same idle rule as in Redis.
 */
export function createMemorySessionHub(now: () => number = Date.now): MemorySessionHub {
  const records = new Map<string, { record: SharedSessionRecord; expiresAt: number; bytes: number; client: string }>();
  const holders = new Map<string, string>();
  const pushes = new Map<string, Map<string, WaitingPush>>();
  const taken = new Map<string, NamedTake>(); // by session and push, oldest first
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
          const waiting = pushes.get(sessionId) ?? new Map<string, WaitingPush>();
          pushes.set(sessionId, waiting.set(pushId, { push: { method: push.method }, expiresAt: now() + ttlMs }));
        },
        async answerAwaited(sessionId, pushId) {
          const entry = pushes.get(sessionId)?.get(pushId);
          return entry !== undefined && entry.expiresAt > now();
        },
        async takeAnswer(sessionId, pushId, take) {
          const key = `${sessionId}\n${pushId}`;
          const before = keptTake(taken, key, now());
          if (before !== undefined) return before.take === take ? before.push : undefined;
          const waiting = pushes.get(sessionId);
          const entry = waiting?.get(pushId);
          waiting?.delete(pushId);
          if (waiting?.size === 0) pushes.delete(sessionId);
          if (fresh(sessionId) === undefined || entry === undefined || entry.expiresAt <= now()) return undefined;
          if (take !== undefined) taken.set(key, { take, push: entry.push, expiresAt: now() + RETAKE_MS });
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
