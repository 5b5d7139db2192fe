/**
 * The sessions one instance holds on the legacy leg: opening one (a fresh server from the factory
 * on its own transport), serving a request on it, its idle clock (restarted in the shared store
 * while busy, in a fleet), and closing; sessionAdmission.ts caps how many are live.
 */
import type { AuthInfo, McpHandlerRequestOptions, McpServerFactory, Server } from '@modelcontextprotocol/server';
import { McpServer } from '@modelcontextprotocol/server';

import { LeaveWatch } from './cancelOnLeave.js';
import { observeBody } from './observeBody.js';
import type { AdmissionLimits } from './sessionAdmission.js';
import { admitSession } from './sessionAdmission.js';
import type { FleetNotification } from '../sessionFleet.js';
import type { SessionBinding, SessionShare } from './session.js';
import { Session } from './session.js';
import type { Relay } from './sessionTransport.js';
import { SessionTransport } from './sessionTransport.js';

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

/** The sessions of one instance, serving sessions from its factory. */
export class SessionTable {
  private readonly byId = new Map<string, Session>();
  private readonly sessions = new Set<Session>();

  constructor(
    private readonly factory: McpServerFactory,
    private readonly options: SessionTableOptions,
  ) {}

  /** Every session open here (a local copy, in a fleet). */
  get live(): ReadonlySet<Session> {
    return this.sessions;
  }

  /** The session with this id, if this instance holds it. */
  get(sessionId: string): Session | undefined {
    return this.byId.get(sessionId);
  }

  /** Opens a session on a fresh server (see {@link SessionOpening}). */
  async create(request: Request, requestOptions: McpHandlerRequestOptions, opening: SessionOpening): Promise<Session> {
    const { authInfo } = requestOptions;
    const { report, counted } = this.options;
    const server = await this.factory({
      era: 'legacy',
      ...(authInfo !== undefined && { authInfo }),
      requestInfo: request,
    });
    const onsessioninitialized = (id: string): void => {
      session.id = id;
      this.byId.set(id, session);
      counted(1);
    };
    const transport = new SessionTransport(
      { sessionIdGenerator: opening.sessionId, onsessioninitialized },
      opening.relay,
    );
    const session = new Session(server, transport, opening.share, opening.binding);
    // Set before connect: the protocol layer chains these hooks.
    transport.onclose = () => void this.close(session);
    transport.onerror = report;
    this.sessions.add(session);
    try {
      await server.connect(transport);
    } catch (error) {
      await this.close(session);
      throw error;
    }
    return session;
  }

  /** Serves one HTTP request on `session`, keeping it busy until the response body is done. */
  async serve(session: Session, request: Request, requestOptions: McpHandlerRequestOptions): Promise<Response> {
    const { sessionFleet, legacySessionIdleMs, report } = this.options;
    session.busy++;
    session.stopIdleClock();
    session.startKeepAlive(sessionFleet, legacySessionIdleMs, report);
    let response: Response;
    try {
      response = await session.transport.handleRequest(request, transportOptions(requestOptions));
    } catch (error) {
      session.busy--;
      this.armIdle(session);
      throw error;
    }
    const standalone = request.method.toUpperCase() === 'GET' && response.ok && response.body !== null;
    if (standalone) {
      session.transport.standaloneStreams++;
      if (sessionFleet !== undefined && session.id !== undefined)
        sessionFleet.claimStream(session.id, legacySessionIdleMs).catch(report);
      // An open GET stream does not keep its session: the idle clock starts now and closes both.
      session.busy--;
      this.armIdle(session);
    }
    const leave = new LeaveWatch(session.transport, request, requestOptions.parsedBody);
    return observeBody(response, (how) => {
      leave.settled(how === 'cancelled');
      if (standalone) {
        session.transport.standaloneStreams--;
        return;
      }
      session.busy--;
      this.armIdle(session);
    });
  }

  /**
   * `undefined` when one more session holding `share` may open (idle local copies are evicted to
   * make room, in a fleet); else the 503 (count, bytes) or 429 (this client's sessions) to answer.
   */
  admit(share: SessionShare): Response | undefined {
    return admitSession(this.sessions, share, this.options, (idle) => void this.close(idle));
  }

  /** Starts a session's idle clock (when nothing is in flight on it). */
  armIdle(session: Session): void {
    session.startIdleClock(this.options.legacySessionIdleMs, () => void this.close(session));
  }

  /** Closes `session` (once: later calls share the first) and forgets it. */
  close(session: Session): Promise<void> {
    if (session.closing !== undefined) return session.closing;
    session.stopIdleClock();
    session.stopKeepAlive();
    if (session.id !== undefined && this.byId.get(session.id) === session) this.byId.delete(session.id);
    if (session.id !== undefined) this.options.counted(-1);
    this.sessions.delete(session);
    // Deferred so that the transport's onclose, re-entering here, finds `closing` already set.
    const closing = Promise.resolve().then(() => session.server.close());
    session.closing = closing.catch(this.options.report);
    return session.closing;
  }

  /** Sends a notification on every live session (only those with an open GET stream when `onlyListening`). */
  notifyAll(notification: FleetNotification, onlyListening: boolean): void {
    for (const session of this.sessions) {
      if (onlyListening && session.transport.standaloneStreams === 0) continue;
      const server = session.server instanceof McpServer ? session.server.server : session.server;
      sendNotification(server, notification).catch(this.options.report);
    }
  }
}

/** What the session transport takes from the leg's request options. */
function transportOptions(options: McpHandlerRequestOptions): { authInfo?: AuthInfo; parsedBody?: unknown } {
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
