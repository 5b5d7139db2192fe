/**
 * The sessions one instance holds on the legacy leg: opening one (a fresh server from the factory
 * on its own transport), serving a request on it, its idle clock (restarted in the shared store
 * while busy, in a fleet), and closing; sessionAdmission.ts caps how many are live.
 */
import type { AuthInfo, McpHandlerRequestOptions, McpServerFactory, Server } from '@modelcontextprotocol/server';
import { McpServer } from '@modelcontextprotocol/server';

import { cancelOnLeave } from './cancelOnLeave.js';
import { observeBody } from './observeBody.js';
import type { AdmissionLimits } from './sessionAdmission.js';
import { admitSession } from './sessionAdmission.js';
import type { FleetNotification, LegacySessionFleet } from '../sessionFleet.js';
import type { Session, SessionBinding, SessionShare } from './session.js';
import type { Relay } from './sessionTransport.js';
import { SessionTransport } from './sessionTransport.js';

export type { Session, SessionBinding, SessionShare } from './session.js';

/** What the table needs from the leg: the limits it admits sessions by, and whom it tells of them. */
export interface SessionTableOptions extends AdmissionLimits {
  /** Told `+1` when a session's `initialize` is accepted, `-1` when it closes. */
  readonly counted: (delta: 1 | -1) => void;
}

/** How a session opens: the id it takes, what it holds, and the fleet's hooks on its transport. */
export interface SessionOpening {
  /** Names the session once its `initialize` is accepted. */
  readonly sessionId: () => string;
  readonly share: SessionShare;
  /** Whose the session is, and its event ids' secret. */
  readonly binding: SessionBinding;
  /** The hooks on the session's transport: the fleet link's, or the process-only leg's (pushIds.ts). */
  readonly relay: Relay;
}

/** The sessions of one instance. */
export interface SessionTable {
  /** Every session open here (a local copy, in a fleet). */
  readonly live: ReadonlySet<Session>;
  /** The session with this id, if this instance holds it. */
  get(sessionId: string): Session | undefined;
  /** Opens a session on a fresh server (see {@link SessionOpening}). */
  create(request: Request, requestOptions: McpHandlerRequestOptions, opening: SessionOpening): Promise<Session>;
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
  const { idleMs, fleet, report, counted } = options;
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
    const closing = Promise.resolve().then(() => session.server.close());
    session.closing = closing.catch(report);
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

  async function serve(
    session: Session,
    request: Request,
    requestOptions: McpHandlerRequestOptions,
  ): Promise<Response> {
    session.busy++;
    disarmIdle(session);
    startKeepAlive(session, fleet, idleMs, report);
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

  async function create(
    request: Request,
    requestOptions: McpHandlerRequestOptions,
    opening: SessionOpening,
  ): Promise<Session> {
    const { authInfo } = requestOptions;
    const server = await factory({ era: 'legacy', ...(authInfo !== undefined && { authInfo }), requestInfo: request });
    const onsessioninitialized = (id: string): void => {
      session.id = id;
      byId.set(id, session);
      counted(1);
    };
    const transport = new SessionTransport(
      { sessionIdGenerator: opening.sessionId, onsessioninitialized },
      opening.relay,
    );
    const session = newSession(server, transport, opening.share, opening.binding);
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

  const admit = (share: SessionShare): Response | undefined =>
    admitSession(live, share, options, (idle) => void close(idle));
  const notifyAll = (notification: FleetNotification, onlyListening: boolean): void =>
    notifySessions(live, notification, onlyListening, report);
  return { live, get: (sessionId) => byId.get(sessionId), create, serve, admit, armIdle, close, notifyAll };
}

/** A session just opened on `server` and `transport`, idle, holding `share`, bound as `binding` says. */
function newSession(
  server: Session['server'],
  transport: SessionTransport,
  share: SessionShare,
  binding: SessionBinding,
): Session {
  return {
    id: undefined,
    server,
    transport,
    bytes: share.bytes,
    client: share.client,
    owner: binding.owner,
    streamKey: binding.streamKey,
    busy: 0,
    idleSince: Date.now(),
    idleTimer: undefined,
    keepAlive: undefined,
    closing: undefined,
  };
}

function disarmIdle(session: Session): void {
  if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
  session.idleTimer = undefined;
}

function stopKeepAlive(session: Session): void {
  if (session.keepAlive !== undefined) clearInterval(session.keepAlive);
  session.keepAlive = undefined;
}

/** In a fleet, a busy session (an open stream) restarts its shared idle clock a few times per idle period. */
function startKeepAlive(
  session: Session,
  fleet: LegacySessionFleet | undefined,
  idleMs: number,
  report: (error: unknown) => void,
): void {
  if (fleet === undefined || session.keepAlive !== undefined || !Number.isFinite(idleMs)) return;
  const id = session.id;
  if (id === undefined) return;
  session.keepAlive = setInterval(() => void fleet.touch(id, idleMs).catch(report), Math.max(idleMs / 3, 1_000));
  session.keepAlive.unref?.();
}

/** Sends a notification on every session of `live` (only those with an open GET stream when `onlyListening`). */
function notifySessions(
  live: Iterable<Session>,
  notification: FleetNotification,
  onlyListening: boolean,
  report: (error: unknown) => void,
): void {
  for (const session of live) {
    if (onlyListening && session.transport.standaloneStreams === 0) continue;
    const server = session.server instanceof McpServer ? session.server.server : session.server;
    sendNotification(server, notification).catch(report);
  }
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
