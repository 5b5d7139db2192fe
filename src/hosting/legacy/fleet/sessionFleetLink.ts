/**
 * How the legacy leg of one instance takes part in a fleet: the hooks its session transports take
 * (push ids that name this instance, messages for a GET stream held elsewhere: fleetHooks.ts), the
 * client's answers relayed to the instance waiting for them (and those relays watched, see
 * fleetRelay.ts), notifications to every instance, and the messages other instances send here.
 */
import type { RequestId } from '@modelcontextprotocol/server';
import { isJSONRPCResponse } from '@modelcontextprotocol/server';

import { FleetHooks } from './fleetHooks.js';
import type { WatchedPushes } from './fleetRelay.js';
import { RelayWatch, relayAnswer } from './fleetRelay.js';
import type { FleetMessage, FleetNotification, LegacySessionFleet } from '../sessionFleet.js';
import { mayUse } from '../sessions/sessionOwner.js';
import type { SessionTable } from '../sessions/sessionTable.js';
import type { Session } from '../sessions/session.js';
import type { Relay, SessionTransport } from '../sessions/sessionTransport.js';
import { pushOwner } from '../sessions/sessionTransport.js';
import type { PushKeeper } from './waitingPushes.js';
import { OrphanedPushCheck, failWaitingPushes, takeWaitingPush } from './waitingPushes.js';

/** How long stopping waits for calls whose pushes it failed to answer their clients, in ms. */
const DRAIN_MS = 2_000;

/** A POST body once its answers are routed: what is left for the local transport, or the refusal to answer with. */
export type RoutedBody = { readonly rest: unknown } | { readonly refused: Response };

/** How an instance links to the fleet. */
export interface FleetLinkOptions {
  /** How long a push's record is kept in the shared store, in ms (the session's idle lifetime). */
  readonly legacySessionIdleMs: number;
  /** The largest answer relayed to another instance, in bytes. */
  readonly maxRelayedAnswerBytes: number;
  readonly report: (error: unknown) => void;
}

/**
 * One instance's link to the fleet, for the sessions of its table: the table's transports take the
 * link's `relay` as they open; the link keeps their waiting pushes ({@link PushKeeper}) and is what
 * its relay watch watches over ({@link WatchedPushes}).
 */
export class FleetLink implements PushKeeper, WatchedPushes {
  /** The hooks every session transport of this instance gets. */
  readonly relay: Relay;
  /** Settles once this instance receives relays (a failure to subscribe is reported). */
  readonly subscribed: Promise<void>;
  /** How long a push's record is kept in the shared store, in ms (the session's idle lifetime). */
  readonly legacySessionIdleMs: number;
  private readonly watch: RelayWatch;
  private readonly orphans: OrphanedPushCheck;
  private readonly stopping: Promise<(() => Promise<void>) | undefined>;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly fleet: LegacySessionFleet,
    private readonly table: SessionTable,
    private readonly options: FleetLinkOptions,
  ) {
    this.legacySessionIdleMs = options.legacySessionIdleMs;
    this.watch = new RelayWatch(fleet, this);
    this.orphans = new OrphanedPushCheck(fleet, this);
    this.stopping = fleet
      .subscribe((message) => this.receive(message))
      .catch((error: unknown) => {
        this.report(error);
        return undefined;
      });
    this.subscribed = this.stopping.then(() => undefined);
    this.relay = new FleetHooks(fleet, this);
  }

  /** The sessions this instance holds. */
  get live(): ReadonlySet<Session> {
    return this.table.live;
  }

  /** The server's error sink. */
  report(error: unknown): void {
    this.options.report(error);
  }

  /** Whether any push of this instance waits for an answer. */
  waiting(): boolean {
    return [...this.table.live].some((session) => session.transport.pushes.size > 0);
  }

  /** Relays may have been lost: fails every waiting push with `reason`. */
  interrupt(reason: string): void {
    void this.failPushes(reason);
  }

  /** Fails the waiting pushes whose answers can no longer arrive (see {@link OrphanedPushCheck}). */
  verify(): Promise<void> {
    return this.orphans.run();
  }

  /** A push was recorded and waits for its answer: the relay watch checks on it. */
  pushed(): void {
    this.watch.wake();
  }

  /** Forgets the shared record of a push this instance no longer waits for (it expires with the session otherwise). */
  forget(sessionId: string | undefined, wireId: string): void {
    if (sessionId !== undefined) this.fleet.takeAnswer(sessionId, wireId).catch(() => undefined);
  }

  /**
   * Relays answers to other instances' pushes (with `owner`, the owner digest of the request that
   * carried them; only those whose push the store records for this session, see fleetRelay.ts)
   * and maps this instance's back to their local ids, dropping (reported) any that names no push:
   * what is left of the body for the local transport, or the response refusing an answer that
   * cannot be relayed.
   */
  async routeAnswers(sessionId: string, body: unknown, owner: string | undefined): Promise<RoutedBody> {
    const { fleet } = this;
    const report = (error: unknown): void => this.report(error);
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
        const refusal = await relayAnswer(fleet, answer, this.options.maxRelayedAnswerBytes, report);
        refused ??= refusal;
      } else {
        const push = this.takePush(sessionId, message.id, 'Dropped an answer');
        if (push !== undefined) {
          this.forget(sessionId, String(message.id));
          kept.push({ ...message, id: push.localId });
        }
      }
    }
    if (refused !== undefined) return { refused };
    return { rest: Array.isArray(body) ? kept : kept[0] };
  }

  /** Publishes a notification to every instance (this one included). */
  publish(notification: FleetNotification): void {
    this.fleet.broadcast({ kind: 'notify', notification }).catch((error: unknown) => this.report(error));
  }

  /**
   * Before this instance stops: fails every push waiting for an answer (its answer could reach no
   * one once this instance is gone), and waits, at most 2 s, until their calls have answered the
   * client on their own streams, so the client learns now instead of at its timeout.
   */
  async drain(): Promise<void> {
    const reason = `Instance ${this.fleet.instanceId}, which asked, is shutting down. Call the tool again.`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((settle) => (timer = setTimeout(settle, DRAIN_MS)));
    await Promise.race([this.failPushes(reason), bound]);
    clearTimeout(timer);
  }

  /** Stops watching and receiving (once: later calls share the first). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.watch.stop();
      const stop = await this.stopping;
      await stop?.().catch((error: unknown) => this.report(error));
    })();
    return this.closing;
  }

  /** Fails every push waiting here (see {@link failWaitingPushes}). */
  private failPushes(reason: string): Promise<void> {
    return failWaitingPushes(this.table.live, reason, this);
  }

  /** Takes a waiting push of this instance off its transport (see {@link takeWaitingPush}). */
  private takePush(
    sessionId: string,
    wireId: unknown,
    dropped: string,
  ): { transport: SessionTransport; localId: RequestId } | undefined {
    const report = (error: unknown): void => this.report(error);
    return takeWaitingPush(this.table.get(sessionId)?.transport, sessionId, wireId, dropped, report);
  }

  /** Handles a message from another instance (or this one's broadcast) for the sessions of the table. */
  private receive(message: FleetMessage): void {
    const { table } = this;
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
          this.report(new Error(`Dropped a relayed answer: session ${message.sessionId} belongs to another principal`));
          return;
        }
        const wireId = isJSONRPCResponse(message.message) ? message.message.id : undefined;
        const push = this.takePush(message.sessionId, wireId, 'Dropped a relayed answer');
        if (push !== undefined) push.transport.onmessage?.({ ...message.message, id: push.localId });
        return;
      }
      case 'deliver': {
        const session = table.get(message.sessionId);
        if (session === undefined || session.transport.standaloneStreams === 0) {
          this.report(
            new Error(`Dropped a relayed message: session ${message.sessionId} has no GET stream on this instance`),
          );
          return;
        }
        session.transport.deliver(message.message).catch((error: unknown) => this.report(error));
        return;
      }
    }
  }
}
