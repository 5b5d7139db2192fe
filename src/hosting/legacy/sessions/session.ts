/** `Session` and `SessionShare`: one legacy session as an instance holds it, and what it counts against the limits. */
import type { McpServer, Server } from '@modelcontextprotocol/server';

import type { SessionTransport } from './sessionTransport.js';

/** One session as this instance holds it. */
export interface Session {
  id: string | undefined;
  readonly server: McpServer | Server;
  readonly transport: SessionTransport;
  /** Bytes of initialize params the session keeps (their JSON), counted against the budget. */
  readonly bytes: number;
  /** The client the session counts against; `undefined` for a copy recreated from the shared store. */
  readonly client: string | undefined;
  /** Digest of the principal that opened the session (see sessionOwner.ts); `undefined`: an anonymous session. */
  readonly owner: string | undefined;
  /** The session's secret for the event ids of its resumable streams (64 hex digits; the same on every instance of a fleet); `undefined`: a record saved without one, whose streams do not resume. */
  readonly streamKey: string | undefined;
  /** Requests in flight plus POST response bodies still streaming (not the GET stream); the idle clock runs only at 0. */
  busy: number;
  /** When the idle clock started (ms since the epoch), for `Retry-After` and eviction order. */
  idleSince: number;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** In a fleet: restarts the shared idle clock while the session is busy here. */
  keepAlive: ReturnType<typeof setInterval> | undefined;
  closing: Promise<void> | undefined;
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
