/**
 * The sessionful legacy (2025-11-25) leg: one factory instance per session, connected to a
 * Streamable HTTP transport that keeps the session's response streams, so server-to-client
 * requests (elicitation, sampling, roots) reach the client mid-call.
 */

import type {
  AuthInfo,
  JSONRPCMessage,
  McpHandlerRequestOptions,
  McpServerFactory,
  RequestId,
  Server,
  ServerNotifier,
} from '@modelcontextprotocol/server';
import {
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  isInitializeRequest,
  isJSONRPCRequest,
} from '@modelcontextprotocol/server';

import { jsonRpcErrorResponse } from './jsonRpcError.js';
import { observeBody } from './observeBody.js';

/** Settings of {@link createLegacySessionLeg}. */
export interface LegacySessionLegOptions {
  /** Idle lifetime of a session in milliseconds (`Infinity`: no idle closing). */
  readonly idleMs: number;
  /** Receives serving failures and rejected requests. */
  readonly onerror: (error: Error) => void;
}

/** A fetch-shaped handler for legacy traffic that owns its sessions. */
export interface LegacySessionLeg {
  /** Serves one legacy HTTP request (POST, GET or DELETE), opening a session on `initialize`. */
  fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response>;
  /** Closes every session and refuses further requests. */
  close(): Promise<void>;
  /** Publishes list-changed and resource-updated notifications to every live session. */
  readonly notify: ServerNotifier;
}

/**
 * A session transport that fails a server-to-client request fast when it has no way to reach the
 * client: not related to an in-flight call, and no standalone GET stream open. The SDK transport
 * would drop such a request silently and the caller would wait for its timeout.
 */
class SessionTransport extends WebStandardStreamableHTTPServerTransport {
  /** Open standalone GET streams of this session (0 or 1). */
  standaloneStreams = 0;

  override async send(message: JSONRPCMessage, options?: { relatedRequestId?: RequestId }): Promise<void> {
    if (isJSONRPCRequest(message) && options?.relatedRequestId === undefined && this.standaloneStreams === 0) {
      throw new Error(
        `Cannot send '${message.method}' to the client: it is not related to an in-flight request and the ` +
          `session has no open GET stream. Pass { relatedRequestId: ctx.mcpReq.id } so it rides the call's response stream.`,
      );
    }
    return super.send(message, options);
  }
}

interface Session {
  id: string | undefined;
  readonly server: McpServer | Server;
  readonly transport: SessionTransport;
  /** Requests in flight plus response bodies still streaming; the idle clock runs only at 0. */
  busy: number;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  closing: Promise<void> | undefined;
}

/** Creates the sessionful legacy leg serving instances from `factory`. */
export function createLegacySessionLeg(factory: McpServerFactory, options: LegacySessionLegOptions): LegacySessionLeg {
  const { idleMs, onerror } = options;
  const byId = new Map<string, Session>();
  const live = new Set<Session>();
  let closed = false;

  const report = (error: unknown): void => {
    try {
      onerror(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // Reporting must never change a response.
    }
  };

  /** Sends one notification on every live session; a session that fails to take it is reported, not fatal. */
  function broadcast(send: (server: Server) => Promise<void>): void {
    for (const session of live) {
      const server = session.server instanceof McpServer ? session.server.server : session.server;
      send(server).catch(report);
    }
  }

  const notify: ServerNotifier = {
    toolsChanged: () => broadcast((server) => server.sendToolListChanged()),
    promptsChanged: () => broadcast((server) => server.sendPromptListChanged()),
    resourcesChanged: () => broadcast((server) => server.sendResourceListChanged()),
    resourceUpdated: (uri) => broadcast((server) => server.sendResourceUpdated({ uri })),
  };

  function closeSession(session: Session): Promise<void> {
    if (session.closing !== undefined) return session.closing;
    if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
    if (session.id !== undefined) byId.delete(session.id);
    live.delete(session);
    // Deferred so that the transport's onclose, re-entering here, finds `closing` already set.
    session.closing = Promise.resolve()
      .then(() => session.server.close())
      .catch(report);
    return session.closing;
  }

  function armIdle(session: Session): void {
    if (session.busy > 0 || session.closing !== undefined || !Number.isFinite(idleMs)) return;
    session.idleTimer = setTimeout(() => void closeSession(session), idleMs);
    session.idleTimer.unref?.();
  }

  function disarmIdle(session: Session): void {
    if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
  }

  async function serve(
    session: Session,
    request: Request,
    requestOptions: McpHandlerRequestOptions,
  ): Promise<Response> {
    session.busy++;
    disarmIdle(session);
    let response: Response;
    try {
      response = await session.transport.handleRequest(request, transportOptions(requestOptions));
    } catch (error) {
      session.busy--;
      armIdle(session);
      throw error;
    }
    const standalone = request.method.toUpperCase() === 'GET' && response.ok && response.body !== null;
    if (standalone) session.transport.standaloneStreams++;
    return observeBody(response, () => {
      if (standalone) session.transport.standaloneStreams--;
      session.busy--;
      armIdle(session);
    });
  }

  async function open(request: Request, requestOptions: McpHandlerRequestOptions): Promise<Response> {
    const { authInfo } = requestOptions;
    const server = await factory({ era: 'legacy', ...(authInfo !== undefined && { authInfo }), requestInfo: request });
    const session: Session = {
      id: undefined,
      server,
      transport: new SessionTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => {
          session.id = id;
          byId.set(id, session);
        },
      }),
      busy: 0,
      idleTimer: undefined,
      closing: undefined,
    };
    // Set before connect: the protocol layer chains these hooks.
    session.transport.onclose = () => void closeSession(session);
    session.transport.onerror = report;
    live.add(session);
    try {
      await server.connect(session.transport);
    } catch (error) {
      await closeSession(session);
      throw error;
    }
    try {
      return await serve(session, request, requestOptions);
    } finally {
      // The transport refused the initialize (bad Accept, batch, …): no session was created.
      if (session.id === undefined) await closeSession(session);
    }
  }

  return {
    notify,
    async fetch(request, requestOptions = {}) {
      if (closed) return jsonRpcErrorResponse(503, -32000, 'Service Unavailable: the server is shutting down');
      const sessionId = request.headers.get('mcp-session-id');
      if (sessionId !== null) {
        const session = byId.get(sessionId);
        if (session === undefined) {
          report(new Error('Session not found'));
          return jsonRpcErrorResponse(404, -32001, 'Session not found');
        }
        return serve(session, request, requestOptions);
      }
      if (request.method.toUpperCase() === 'POST' && opensSession(requestOptions.parsedBody)) {
        return open(request, requestOptions);
      }
      report(new Error('Bad Request: Mcp-Session-Id header is required'));
      return jsonRpcErrorResponse(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    },
    async close() {
      closed = true;
      await Promise.all([...live].map(closeSession));
    },
  };
}

/** Whether a parsed POST body is (or contains) an `initialize` request. */
function opensSession(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}

function transportOptions(options: McpHandlerRequestOptions): { authInfo?: AuthInfo; parsedBody?: unknown } {
  return {
    ...(options.authInfo !== undefined && { authInfo: options.authInfo }),
    ...(options.parsedBody !== undefined && { parsedBody: options.parsedBody }),
  };
}
