/**
 * How the legacy leg of one instance takes part in a fleet: push ids that name this instance,
 * messages for a GET stream held elsewhere, the client's answers relayed to the instance waiting
 * for them (and those relays watched, see fleetRelay.ts), notifications to every instance, and the
 * messages other instances send here.
 */
import { isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResponse } from '@modelcontextprotocol/server';

import { recordPush, relayAnswer, watchRelay } from './fleetRelay.js';
import type { FleetMessage, FleetNotification, LegacySessionFleet } from './sessionFleet.js';
import type { Session } from './session.js';
import type { SessionTable } from './sessionTable.js';
import type { Relay } from './sessionTransport.js';
import { WIRE_ID_PREFIX, pushOwner } from './sessionTransport.js';
import { failWaitingPushes, takeWaitingPush } from './waitingPushes.js';

/** How long stopping waits for calls whose pushes it failed to answer their clients, in ms. */
const DRAIN_MS = 2_000;

/** Why a push fails when the shared store lost its session's records. */
const STORE_LOST =
  "The fleet's shared store lost this session's records while this request waited for its answer, so no instance can relay the answer. Call the tool again.";

/** Why a push fails when an instance took its answer to relay it and never delivered it. */
const RELAY_STOPPED =
  'Another instance of the fleet took the answer to this request to relay it here, and it never arrived: that instance stopped (or lost the fleet) while relaying it. Call the tool again.';

/** One instance's link to the fleet. */
export interface FleetLink {
  /** The hooks every session transport of this instance gets. */
  readonly relay: Relay;
  /**
   * Relays answers to other instances' pushes and maps this instance's back: what is left of the
   * body for the local transport, or the response refusing an answer that cannot be relayed.
   */
  routeAnswers(sessionId: string, body: unknown): Promise<RoutedBody>;
  /** Publishes a notification to every instance (this one included). */
  publish(notification: FleetNotification): void;
  /** Settles once this instance receives relays (a failure to subscribe is reported). */
  readonly subscribed: Promise<void>;
  /**
   * Before this instance stops: fails every push waiting for an answer (its answer could reach no
   * one once this instance is gone), and waits, at most 2 s, until their calls have answered the
   * client on their own streams, so the client learns now instead of at its timeout.
   */
  drain(): Promise<void>;
  /** Stops watching and receiving (once: later calls share the first). */
  close(): Promise<void>;
}

/** A POST body once its answers are routed: what is left for the local transport, or the refusal to answer with. */
export type RoutedBody = { readonly rest: unknown } | { readonly refused: Response };

/** How an instance links to the fleet. */
export interface FleetLinkOptions {
  /** How long a push's record is kept in the shared store, in ms (the session's idle lifetime). */
  readonly idleMs: number;
  /** The largest answer relayed to another instance, in bytes. */
  readonly maxRelayedAnswerBytes: number;
  readonly report: (error: unknown) => void;
}

/** Links the sessions of `table()` to `fleet`. */
export function linkToFleet(
  fleet: LegacySessionFleet,
  table: () => SessionTable,
  options: FleetLinkOptions,
): FleetLink {
  const { idleMs, maxRelayedAnswerBytes, report } = options;
  /** Forgets the shared record of a push this instance no longer waits for (it expires with the session otherwise). */
  const forgetPush = (sessionId: string | undefined, wireId: string): void => {
    if (sessionId !== undefined) fleet.takeAnswer(sessionId, wireId).catch(() => undefined);
  };
  const watch = watchRelay({
    fleet,
    waiting: () => [...table().live].some((session) => session.transport.pushes.size > 0),
    interrupted: (reason) => void failPushes(reason),
    verify: failOrphanedPushes,
  });

  /** Pushes whose record a check found taken while they still waited here: failed if still waiting at the next check. */
  let taken = new Set<string>();

  /**
   * Fails the waiting pushes whose answers can no longer arrive: those of sessions the shared store
   * lost (no instance can relay their answers), and those whose record was taken by a relaying
   * instance on two checks in a row (a second apart) without the answer arriving: that instance
   * stopped between taking the record and publishing the answer.
   */
  async function failOrphanedPushes(): Promise<void> {
    const lost: Session[] = [];
    const stillTaken = new Set<string>();
    for (const session of table().live) {
      if (session.id === undefined || session.transport.pushes.size === 0) continue;
      // A store that fails is the listening check's to report; only a record that is gone counts here.
      if ((await fleet.load(session.id, idleMs).catch(() => null)) === undefined) {
        lost.push(session);
        continue;
      }
      for (const wireId of session.transport.pushes.keys()) {
        if ((await fleet.answerAwaited(session.id, wireId).catch(() => true)) === false) stillTaken.add(wireId);
      }
    }
    const relayStopped = [...stillTaken].filter((wireId) => taken.has(wireId));
    taken = new Set([...stillTaken].filter((wireId) => !taken.has(wireId)));
    if (lost.length > 0) await failWaitingPushes(lost, STORE_LOST, forgetPush, report);
    if (relayStopped.length > 0) {
      const which = (wireId: string): boolean => relayStopped.includes(wireId);
      await failWaitingPushes(table().live, RELAY_STOPPED, forgetPush, report, which);
    }
  }

  /** Fails every push waiting here (see {@link failWaitingPushes}). */
  const failPushes = (reason: string): Promise<void> => failWaitingPushes(table().live, reason, forgetPush, report);

  const relay: Relay = {
    async outbound(transport, message, call) {
      if (isJSONRPCRequest(message)) {
        const wireId = `${WIRE_ID_PREFIX}${fleet.instanceId}:${String(message.id)}`;
        const sessionId = transport.sessionId;
        // Recorded before the push leaves: the answer may reach another instance at once.
        if (sessionId !== undefined) await recordPush(fleet, sessionId, wireId, message.method, idleMs);
        transport.pushes.set(wireId, { localId: message.id, call });
        watch.wake();
        return { ...message, id: wireId };
      }
      if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
        const requestId: unknown = message.params?.requestId;
        for (const [wireId, { localId }] of transport.pushes) {
          if (localId !== requestId) continue;
          transport.pushes.delete(wireId);
          forgetPush(transport.sessionId, wireId);
          return { ...message, params: { ...message.params, requestId: wireId } };
        }
      }
      return message;
    },
    async toStreamHolder(sessionId, message) {
      if (sessionId === undefined) return false;
      const holder = await fleet.streamHolder(sessionId);
      if (holder === undefined || holder === fleet.instanceId) return false;
      await fleet.send(holder, { kind: 'deliver', sessionId, message });
      return true;
    },
  };

  /** Handles a message from another instance (or this one's broadcast). */
  function receive(message: FleetMessage): void {
    const sessions = table();
    switch (message.kind) {
      case 'notify':
        sessions.notifyAll(message.notification, true);
        return;
      case 'ended': {
        const session = sessions.get(message.sessionId);
        if (session !== undefined) void sessions.close(session);
        return;
      }
      case 'answer': {
        const wireId = isJSONRPCResponse(message.message) ? message.message.id : undefined;
        const push = takePush(message.sessionId, wireId, 'Dropped a relayed answer');
        if (push !== undefined) push.transport.onmessage?.({ ...message.message, id: push.localId });
        return;
      }
      case 'deliver': {
        const session = sessions.get(message.sessionId);
        if (session === undefined || session.transport.standaloneStreams === 0) {
          report(
            new Error(`Dropped a relayed message: session ${message.sessionId} has no GET stream on this instance`),
          );
          return;
        }
        session.transport.deliver(message.message).catch(report);
        return;
      }
    }
  }

  const takePush = (sessionId: string, wireId: unknown, dropped: string) =>
    takeWaitingPush(table().get(sessionId)?.transport, sessionId, wireId, dropped, report);

  /**
   * Relays the answers in `body` meant for other instances (only those whose push the store
   * records for this session, see fleetRelay.ts); maps this instance's to their local ids.
   */
  async function routeAnswers(sessionId: string, body: unknown): Promise<RoutedBody> {
    const messages: unknown[] = Array.isArray(body) ? body : [body];
    const kept: unknown[] = [];
    let refused: Response | undefined;
    for (const message of messages) {
      if (!isJSONRPCResponse(message)) {
        kept.push(message);
        continue;
      }
      const owner = pushOwner(message.id);
      if (owner === undefined) kept.push(message);
      else if (owner !== fleet.instanceId) {
        const refusal = await relayAnswer(fleet, { sessionId, target: owner, message }, maxRelayedAnswerBytes, report);
        refused ??= refusal;
      } else {
        const push = takePush(sessionId, message.id, 'Dropped an answer');
        if (push !== undefined) {
          forgetPush(sessionId, String(message.id));
          kept.push({ ...message, id: push.localId });
        }
      }
    }
    if (refused !== undefined) return { refused };
    return { rest: Array.isArray(body) ? kept : kept[0] };
  }

  let closing: Promise<void> | undefined;
  const stopping = fleet.subscribe(receive).catch((error: unknown) => {
    report(error);
    return undefined;
  });

  return {
    relay,
    routeAnswers,
    publish: (notification) => void fleet.broadcast({ kind: 'notify', notification }).catch(report),
    subscribed: stopping.then(() => undefined),
    async drain() {
      const reason = `Instance ${fleet.instanceId}, which asked, is shutting down. Call the tool again.`;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const bound = new Promise<void>((settle) => (timer = setTimeout(settle, DRAIN_MS)));
      await Promise.race([failPushes(reason), bound]);
      clearTimeout(timer);
    },
    close() {
      closing ??= (async () => {
        watch.stop();
        const stop = await stopping;
        await stop?.().catch(report);
      })();
      return closing;
    },
  };
}
