/** `Session` and `SessionShare`: one legacy session as an instance holds it (with its idle clock), and what it counts against the limits. */
import type { McpServer, Server } from '@modelcontextprotocol/server';

import type { LegacySessionFleet } from '../sessionFleet.js';
import type { SessionTransport } from './sessionTransport.js';

/** One session as this instance holds it: its server and transport, what it counts against, and its idle clock. */
export class Session {
  /** Set once its `initialize` is accepted. */
  id: string | undefined = undefined;
  /** Bytes of initialize params the session keeps (their JSON), counted against the budget. */
  readonly bytes: number;
  /** The client the session counts against; `undefined` for a copy recreated from the shared store. */
  readonly client: string | undefined;
  /** Digest of the principal that opened the session (see sessionOwner.ts); `undefined`: an anonymous session. */
  readonly owner: string | undefined;
  /** The session's secret for the event ids of its resumable streams (64 hex digits; the same on every instance of a fleet); `undefined`: a record saved without one, whose streams do not resume. */
  readonly streamKey: string | undefined;
  /** Requests in flight plus POST response bodies still streaming (not the GET stream); the idle clock runs only at 0. */
  busy = 0;
  /** When the idle clock started (ms since the epoch), for `Retry-After` and eviction order. */
  idleSince = Date.now();
  closing: Promise<void> | undefined = undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** In a fleet: restarts the shared idle clock while the session is busy here. */
  private keepAlive: ReturnType<typeof setInterval> | undefined;

  /** A session just opened on `server` and `transport`, idle, holding `share`, bound as `binding` says. */
  constructor(
    readonly server: McpServer | Server,
    readonly transport: SessionTransport,
    share: SessionShare,
    binding: SessionBinding,
  ) {
    this.bytes = share.bytes;
    this.client = share.client;
    this.owner = binding.owner;
    this.streamKey = binding.streamKey;
  }

  /**
   * Starts the idle clock, unless a request is in flight or the session is closing: `expire` runs
   * once the session has been idle for `idleMs` (never, when it is not finite).
   */
  startIdleClock(idleMs: number, expire: () => void): void {
    if (this.busy > 0 || this.closing !== undefined) return;
    this.stopKeepAlive();
    this.idleSince = Date.now();
    if (!Number.isFinite(idleMs)) return;
    this.idleTimer = setTimeout(expire, idleMs);
    this.idleTimer.unref?.();
  }

  /** Stops the idle clock: a request is in flight, or the session closes. */
  stopIdleClock(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** In a fleet, while the session is busy here: restarts its shared idle clock a few times per idle period. */
  startKeepAlive(fleet: LegacySessionFleet | undefined, idleMs: number, report: (error: unknown) => void): void {
    if (fleet === undefined || this.keepAlive !== undefined || !Number.isFinite(idleMs)) return;
    const id = this.id;
    if (id === undefined) return;
    this.keepAlive = setInterval(() => void fleet.touch(id, idleMs).catch(report), Math.max(idleMs / 3, 1_000));
    this.keepAlive.unref?.();
  }

  /** Stops restarting the shared idle clock. */
  stopKeepAlive(): void {
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }
}

/** What a session about to open will hold, for admission. */
export interface SessionShare {
  /** Bytes of initialize params it keeps. */
  readonly bytes: number;
  /** The client it counts against (`undefined`: a recreated copy, counted in the shared store). */
  readonly client: string | undefined;
}

/** Whose a session is and how its streams' event ids are signed: set when it opens, kept in the shared record in a fleet. */
export interface SessionBinding {
  /** Digest of the principal that opened it; `undefined`: anonymous. */
  readonly owner: string | undefined;
  /** The secret of its event ids (64 hex digits); `undefined`: none (its streams do not resume). */
  readonly streamKey: string | undefined;
}
