/**
 * The sessions one instance holds on the legacy leg: opening one (a fresh server from the factory
 * on its own transport), serving a request on it, its idle clock (restarted in the shared store
 * while busy, in a fleet), the cap on how many are live, and closing.
 */
import type { AuthInfo, McpHandlerRequestOptions, McpServerFactory, Server } from '@modelcontextprotocol/server';
import { McpServer } from '@modelcontextprotocol/server';

import { jsonRpcErrorResponse } from './jsonRpcError.js';
import { cancelOnLeave } from './leavingClient.js';
import { observeBody } from './observeBody.js';
import type { FleetNotification, LegacySessionFleet } from './sessionFleet.js';
import type { Relay } from './sessionTransport.js';
import { SessionTransport } from './sessionTransport.js';

/** The `Retry-After` (seconds) of a refused session when no idle session will expire sooner. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;

/** One session as this instance holds it. */
export interface Session {
  id: string | undefined;
  readonly server: McpServer | Server;
  readonly transport: SessionTransport;
  /** Bytes of initialize params the session keeps (their JSON), counted against the budget. */
  readonly bytes: number;
  /** The client the session counts against; `undefined` for a copy recreated from the shared store. */
  readonly client: string | undefined;
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

/** What the table needs from the leg. */
export interface SessionTableOptions {
  readonly idleMs: number;
  readonly maxSessions: number;
  /** Total bytes of initialize params the sessions held here may keep. */
  readonly budgetBytes: number;
  /** Most sessions one client may hold (checked here only without a fleet: the shared store checks it in one). */
  readonly maxPerClient: number;
  readonly fleet: LegacySessionFleet | undefined;
  /** The fleet's hooks on each session's transport (read when a session opens). */
  relay(): Relay | undefined;
  readonly report: (error: unknown) => void;
  /** Told `+1` when a session's `initialize` is accepted, `-1` when it closes. */
  readonly counted: (delta: 1 | -1) => void;
}

/** The sessions of one instance. */
export interface SessionTable {
  /** Every session open here (a local copy, in a fleet). */
  readonly live: ReadonlySet<Session>;
  /** The session with this id, if this instance holds it. */
  get(sessionId: string): Session | undefined;
  /** Opens a session on a fresh server; `sessionId` names it once its `initialize` is accepted. */
  create(
    request: Request,
    requestOptions: McpHandlerRequestOptions,
    sessionId: () => string,
    share: SessionShare,
  ): Promise<Session>;
  /** Serves one HTTP request on `session`, keeping it busy until the response body is done. */
  serve(session: Session, request: Request, requestOptions: McpHandlerRequestOptions): Promise<Response>;
  /**
   * `undefined` when one more session holding `share` may open (idle local copies are evicted to
   * make room, in a fleet); else the 503 (count, bytes) or 429 (this client's sessions) to answer.
   */
  admit(share: SessionShare): Response | undefined;
  /** Starts a session's idle clock (when nothing is in flight on it). */
  armIdle(session: Session): void;
  close(session: Session): Promise<void>;
  /** Sends a notification on every live session (only those with an open GET stream when `onlyListening`). */
  notifyAll(notification: FleetNotification, onlyListening: boolean): void;
}

/** Creates the session table of one instance, serving sessions from `factory`. */
export function createSessionTable(factory: McpServerFactory, options: SessionTableOptions): SessionTable {
  const { idleMs, maxSessions, budgetBytes, maxPerClient, fleet, report, counted } = options;
  const byId = new Map<string, Session>();
  const live = new Set<Session>();

  function close(session: Session): Promise<void> {
    if (session.closing !== undefined) return session.closing;
    disarmIdle(session);
    stopKeepAlive(session);
    if (session.id !== undefined && byId.get(session.id) === session) byId.delete(session.id);
    if (session.id !== undefined) counted(-1);
    live.delete(session);
    // Deferred so that the transport's onclose, re-entering here, finds `closing` already set.
    session.closing = Promise.resolve()
      .then(() => session.server.close())
      .catch(report);
    return session.closing;
  }

  function armIdle(session: Session): void {
    if (session.busy > 0 || session.closing !== undefined) return;
    stopKeepAlive(session);
    session.idleSince = Date.now();
    if (!Number.isFinite(idleMs)) return;
    session.idleTimer = setTimeout(() => void close(session), idleMs);
    session.idleTimer.unref?.();
  }

  function disarmIdle(session: Session): void {
    if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
  }

  /** In a fleet, a busy session (an open stream) restarts its shared idle clock a few times per idle period. */
  function startKeepAlive(session: Session): void {
    if (fleet === undefined || session.keepAlive !== undefined || !Number.isFinite(idleMs)) return;
    const id = session.id;
    if (id === undefined) return;
    session.keepAlive = setInterval(() => void fleet.touch(id, idleMs).catch(report), Math.max(idleMs / 3, 1_000));
    session.keepAlive.unref?.();
  }

  function stopKeepAlive(session: Session): void {
    if (session.keepAlive !== undefined) clearInterval(session.keepAlive);
    session.keepAlive = undefined;
  }

  async function serve(
    session: Session,
    request: Request,
    requestOptions: McpHandlerRequestOptions,
  ): Promise<Response> {
    session.busy++;
    disarmIdle(session);
    startKeepAlive(session);
    let response: Response;
    try {
      response = await session.transport.handleRequest(request, transportOptions(requestOptions));
    } catch (error) {
      session.busy--;
      armIdle(session);
      throw error;
    }
    const standalone = request.method.toUpperCase() === 'GET' && response.ok && response.body !== null;
    if (standalone) {
      session.transport.standaloneStreams++;
      if (fleet !== undefined && session.id !== undefined) fleet.claimStream(session.id, idleMs).catch(report);
      // An open GET stream does not keep its session: the idle clock starts now and closes both.
      session.busy--;
      armIdle(session);
    }
    const leave = cancelOnLeave(session.transport, request, requestOptions.parsedBody);
    return observeBody(response, (how) => {
      leave.settled(how === 'cancelled');
      if (standalone) {
        session.transport.standaloneStreams--;
        return;
      }
      session.busy--;
      armIdle(session);
    });
  }

  function admit(share: SessionShare): Response | undefined {
    if (fleet === undefined && share.client !== undefined) {
      const mine = [...live].filter((session) => session.client === share.client);
      if (mine.length >= maxPerClient) {
        const retryAfter = retryAfterSeconds(mine);
        report(new Error(`Refused a legacy session: its client holds ${maxPerClient} sessions`));
        return jsonRpcErrorResponse(
          429,
          -32000,
          `Too Many Requests: this client holds its maximum of ${maxPerClient} legacy sessions ` +
            `(maxLegacySessionsPerClient); end one with DELETE or retry in ${retryAfter} s`,
          { 'Retry-After': String(retryAfter) },
        );
      }
    }
    for (;;) {
      const overCount = live.size >= maxSessions;
      const held = heldBytes();
      if (!overCount && held + share.bytes <= budgetBytes) return undefined;
      // In a fleet the local copies are a cache of the shared store: close the oldest idle one.
      const idle = fleet === undefined ? undefined : oldestIdle(live, true);
      if (idle === undefined) {
        const retryAfter = retryAfterSeconds(live);
        report(
          new Error(
            `Refused a legacy session: ${overCount ? `${maxSessions} sessions are live` : `${held} bytes are held`}`,
          ),
        );
        const message = overCount
          ? `Service Unavailable: this server holds its maximum of ${maxSessions} legacy sessions; retry in ${retryAfter} s`
          : `Service Unavailable: legacy sessions hold ${held} of the ${budgetBytes} bytes they may keep ` +
            `(legacySessionBudgetBytes); retry in ${retryAfter} s`;
        return jsonRpcErrorResponse(503, -32000, message, { 'Retry-After': String(retryAfter) });
      }
      void close(idle); // a local copy only: the session lives on in the shared store
    }
  }

  function heldBytes(): number {
    let held = 0;
    for (const session of live) held += session.bytes;
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

  function retryAfterSeconds(sessions: Iterable<Session>): number {
    const idle = oldestIdle(sessions);
    if (idle === undefined || !Number.isFinite(idleMs)) return DEFAULT_RETRY_AFTER_SECONDS;
    return Math.max(1, Math.ceil((idle.idleSince + idleMs - Date.now()) / 1000));
  }

  async function create(
    request: Request,
    requestOptions: McpHandlerRequestOptions,
    sessionId: () => string,
    share: SessionShare,
  ): Promise<Session> {
    const { authInfo } = requestOptions;
    const server = await factory({ era: 'legacy', ...(authInfo !== undefined && { authInfo }), requestInfo: request });
    const onsessioninitialized = (id: string): void => {
      session.id = id;
      byId.set(id, session);
      counted(1);
    };
    const transport = new SessionTransport({ sessionIdGenerator: sessionId, onsessioninitialized }, options.relay());
    const session: Session = {
      id: undefined,
      server,
      transport,
      bytes: share.bytes,
      client: share.client,
      busy: 0,
      idleSince: Date.now(),
      idleTimer: undefined,
      keepAlive: undefined,
      closing: undefined,
    };
    // Set before connect: the protocol layer chains these hooks.
    transport.onclose = () => void close(session);
    transport.onerror = report;
    live.add(session);
    try {
      await server.connect(transport);
    } catch (error) {
      await close(session);
      throw error;
    }
    return session;
  }

  function notifyAll(notification: FleetNotification, onlyListening: boolean): void {
    for (const session of live) {
      if (onlyListening && session.transport.standaloneStreams === 0) continue;
      const server = session.server instanceof McpServer ? session.server.server : session.server;
      sendNotification(server, notification).catch(report);
    }
  }

  return { live, get: (sessionId) => byId.get(sessionId), create, serve, admit, armIdle, close, notifyAll };
}

/** What the session transport takes from the leg's request options. */
export function transportOptions(options: McpHandlerRequestOptions): { authInfo?: AuthInfo; parsedBody?: unknown } {
  return {
    ...(options.authInfo !== undefined && { authInfo: options.authInfo }),
    ...(options.parsedBody !== undefined && { parsedBody: options.parsedBody }),
  };
}

function sendNotification(server: Server, notification: FleetNotification): Promise<void> {
  switch (notification.kind) {
    case 'toolsChanged':
      return server.sendToolListChanged();
    case 'promptsChanged':
      return server.sendPromptListChanged();
    case 'resourcesChanged':
      return server.sendResourceListChanged();
    case 'resourceUpdated':
      return server.sendResourceUpdated({ uri: notification.uri });
  }
}
