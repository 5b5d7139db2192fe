/**
 * How the legacy leg of one instance takes part in a fleet: the hooks its session transports take
 * (push ids that name this instance, messages for a GET stream held elsewhere: fleetHooks.ts), the
 * client's answers relayed to the instance waiting for them (and those relays watched, see
 * fleetRelay.ts), notifications to every instance, and the messages other instances send here.
 */
import type { RequestId } from '@modelcontextprotocol/server';
import { isJSONRPCResponse } from '@modelcontextprotocol/server';

import { fleetHooks } from './fleetHooks.js';
import { relayAnswer, watchRelay } from './fleetRelay.js';
import type { FleetMessage, FleetNotification, LegacySessionFleet } from '../sessionFleet.js';
import { mayUse } from '../sessions/sessionOwner.js';
import type { SessionTable } from '../sessions/sessionTable.js';
import type { Relay, SessionTransport } from '../sessions/sessionTransport.js';
import { pushOwner } from '../sessions/sessionTransport.js';
import { failWaitingPushes, orphanedPushCheck, takeWaitingPush } from './waitingPushes.js';

/** How long stopping waits for calls whose pushes it failed to answer their clients, in ms. */
const DRAIN_MS = 2_000;

/** One instance's link to the fleet. */
export interface FleetLink {
  /** The hooks every session transport of this instance gets. */
  readonly relay: Relay;
  /**
   * Relays answers to other instances' pushes (with `owner`, the owner digest of the request that
   * carried them) and maps this instance's back, dropping any that names no push: what is left of
   * the body for the local transport, or the response refusing an answer that cannot be relayed.
   */
  routeAnswers(sessionId: string, body: unknown, owner: string | undefined): Promise<RoutedBody>;
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

/** Links the sessions of `table` to `fleet`: the table's transports take the link's `relay` as they open. */
export function linkToFleet(fleet: LegacySessionFleet, table: SessionTable, options: FleetLinkOptions): FleetLink {
  const { idleMs, maxRelayedAnswerBytes, report } = options;
  /** Forgets the shared record of a push this instance no longer waits for (it expires with the session otherwise). */
  const forget = (sessionId: string | undefined, wireId: string): void => {
    if (sessionId !== undefined) fleet.takeAnswer(sessionId, wireId).catch(() => undefined);
  };
  /** Fails every push waiting here (see {@link failWaitingPushes}). */
  const failPushes = (reason: string): Promise<void> => failWaitingPushes(table.live, reason, forget, report);
  const watch = watchRelay({
    fleet,
    waiting: () => [...table.live].some((session) => session.transport.pushes.size > 0),
    interrupted: (reason) => void failPushes(reason),
    verify: orphanedPushCheck(fleet, { live: table.live, idleMs, forget, report }),
    report,
  });
  const takePush: TakePush = (sessionId, wireId, dropped) =>
    takeWaitingPush(table.get(sessionId)?.transport, sessionId, wireId, dropped, report);

  /**
   * Relays the answers in `body` meant for other instances (only those whose push the store
   * records for this session, see fleetRelay.ts); maps this instance's to their local ids; drops
   * (reported) an answer whose id is no push id.
   */
  async function routeAnswers(sessionId: string, body: unknown, owner: string | undefined): Promise<RoutedBody> {
    const messages: unknown[] = Array.isArray(body) ? body : [body];
    const kept: unknown[] = [];
    let refused: Response | undefined;
    for (const message of messages) {
      if (!isJSONRPCResponse(message)) {
        kept.push(message);
        continue;
      }
      const target = pushOwner(message.id);
      if (target === undefined) {
        report(new Error(`Dropped an answer: ${JSON.stringify(message.id)} is no push id of session ${sessionId}`));
      } else if (target !== fleet.instanceId) {
        const answer = { sessionId, target, message, owner };
        const refusal = await relayAnswer(fleet, answer, maxRelayedAnswerBytes, report);
        refused ??= refusal;
      } else {
        const push = takePush(sessionId, message.id, 'Dropped an answer');
        if (push !== undefined) {
          forget(sessionId, String(message.id));
          kept.push({ ...message, id: push.localId });
        }
      }
    }
    if (refused !== undefined) return { refused };
    return { rest: Array.isArray(body) ? kept : kept[0] };
  }

  let closing: Promise<void> | undefined;
  const stopping = fleet
    .subscribe((message) => receive(table, message, takePush, report))
    .catch((error: unknown) => {
      report(error);
      return undefined;
    });

  return {
    relay: fleetHooks(fleet, { idleMs, pushed: () => watch.wake(), forget, report }),
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

/** Takes a waiting push of this instance off its transport (see {@link takeWaitingPush}). */
type TakePush = (
  sessionId: string,
  wireId: unknown,
  dropped: string,
) => { transport: SessionTransport; localId: RequestId } | undefined;

/** Handles a message from another instance (or this one's broadcast) for the sessions of `table`. */
function receive(
  table: SessionTable,
  message: FleetMessage,
  takePush: TakePush,
  report: (error: unknown) => void,
): void {
  switch (message.kind) {
    case 'notify':
      table.notifyAll(message.notification, true);
      return;
    case 'ended': {
      const session = table.get(message.sessionId);
      if (session !== undefined) void table.close(session);
      return;
    }
    case 'answer': {
      const session = table.get(message.sessionId);
      if (session !== undefined && !mayUse(session.owner, message.owner)) {
        report(new Error(`Dropped a relayed answer: session ${message.sessionId} belongs to another principal`));
        return;
      }
      const wireId = isJSONRPCResponse(message.message) ? message.message.id : undefined;
      const push = takePush(message.sessionId, wireId, 'Dropped a relayed answer');
      if (push !== undefined) push.transport.onmessage?.({ ...message.message, id: push.localId });
      return;
    }
    case 'deliver': {
      const session = table.get(message.sessionId);
      if (session === undefined || session.transport.standaloneStreams === 0) {
        report(new Error(`Dropped a relayed message: session ${message.sessionId} has no GET stream on this instance`));
        return;
      }
      session.transport.deliver(message.message).catch(report);
      return;
    }
  }
}
