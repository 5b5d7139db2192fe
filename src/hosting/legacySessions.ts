/**
 * The sessionful legacy (2025-11-25) leg: one factory instance per session, connected to a
 * Streamable HTTP transport that keeps the session's response streams, so server-to-client
 * requests (elicitation, sampling, roots) reach the client mid-call.
 *
 * With a {@link LegacySessionFleet}, a session lives in the shared store and each instance keeps a
 * local copy it can recreate at any time (by replaying the client's `initialize`): any instance
 * serves any request. The call's own response stream stays where the call runs; the client's
 * answer to a push, and messages for a GET stream held elsewhere, are relayed between instances.
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
  ProtocolErrorCode,
  WebStandardStreamableHTTPServerTransport,
  isInitializeRequest,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
} from '@modelcontextprotocol/server';

import { ANSWER_UNREACHABLE } from '../questions/push.js';
import { relayPatiently, watchRelay } from './fleetRelay.js';
import { jsonRpcErrorResponse } from './jsonRpcError.js';
import { observeBody } from './observeBody.js';
import type { FleetMessage, FleetNotification, LegacySessionFleet, SharedSessionRecord } from './sessionFleet.js';

/** Settings of {@link createLegacySessionLeg}. */
export interface LegacySessionLegOptions {
  /** Idle lifetime of a session in milliseconds (`Infinity`: no idle closing). */
  readonly idleMs: number;
  /** Most sessions held at once by this instance (local copies, in a fleet). */
  readonly maxSessions: number;
  /** Where sessions are shared with other instances; `undefined`: this process only. */
  readonly fleet: LegacySessionFleet | undefined;
  /** Receives serving failures and rejected requests. */
  readonly onerror: (error: Error) => void;
  /** Told each time a session opens here (`+1`, its `initialize` accepted) or closes (`-1`); a throw is ignored. */
  readonly onSessions?: ((delta: 1 | -1) => void) | undefined;
}

/** A fetch-shaped handler for legacy traffic that owns its sessions. */
export interface LegacySessionLeg {
  /** Serves one legacy HTTP request (POST, GET or DELETE), opening a session on `initialize`. */
  fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response>;
  /** Closes every session (its local copies, in a fleet) and refuses further requests. */
  close(): Promise<void>;
  /** Publishes list-changed and resource-updated notifications to every live session (every instance's, in a fleet). */
  readonly notify: ServerNotifier;
}

/** Prefix of the JSON-RPC ids of pushes in a fleet: `mcpr:<instance id>:<local id>` names the instance that waits for the answer. */
const WIRE_ID_PREFIX = 'mcpr:';

/** The `Retry-After` (seconds) of a refused session when no idle session will expire sooner. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;

const ACCEPT_BOTH = 'application/json, text/event-stream';

/** How an instance takes part in a fleet, as its sessions' transports see it. */
interface Relay {
  /** Rewrites an outgoing message: push ids become fleet-unique, cancellations follow them. */
  outbound(transport: SessionTransport, message: JSONRPCMessage): JSONRPCMessage;
  /** Sends a message meant for the GET stream to the instance holding it; `false` when no other instance does. */
  toStreamHolder(sessionId: string | undefined, message: JSONRPCMessage): Promise<boolean>;
}

/**
 * A session transport that fails a server-to-client request fast when it has no way to reach the
 * client: not related to an in-flight call, and no standalone GET stream open (here or, in a
 * fleet, on another instance). The SDK transport would drop such a request silently and the caller
 * would wait for its timeout.
 */
class SessionTransport extends WebStandardStreamableHTTPServerTransport {
  /** Open standalone GET streams of this session on this instance (0 or 1). */
  standaloneStreams = 0;
  /** In a fleet: pushes waiting for the client's answer, local id by wire id. */
  readonly pushes = new Map<string, RequestId>();

  constructor(
    options: ConstructorParameters<typeof WebStandardStreamableHTTPServerTransport>[0],
    private readonly relay: Relay | undefined,
  ) {
    super(options);
  }

  override async send(message: JSONRPCMessage, options?: { relatedRequestId?: RequestId }): Promise<void> {
    const outgoing = this.relay?.outbound(this, message) ?? message;
    if (options?.relatedRequestId === undefined && !isJSONRPCResponse(outgoing) && this.standaloneStreams === 0) {
      if (this.relay !== undefined && (await this.relay.toStreamHolder(this.sessionId, outgoing))) return;
      if (isJSONRPCRequest(outgoing)) {
        throw new Error(
          `Cannot send '${outgoing.method}' to the client: it is not related to an in-flight request and the ` +
            `session has no open GET stream. Pass { relatedRequestId: ctx.mcpReq.id } so it rides the call's response stream.`,
        );
      }
    }
    return super.send(outgoing, options);
  }

  /** Writes a message relayed from another instance to this session's GET stream, as it is. */
  deliver(message: JSONRPCMessage): Promise<void> {
    return super.send(message);
  }
}

interface Session {
  id: string | undefined;
  readonly server: McpServer | Server;
  readonly transport: SessionTransport;
  /** Requests in flight plus response bodies still streaming; the idle clock runs only at 0. */
  busy: number;
  /** When the idle clock started (ms since the epoch), for `Retry-After` and eviction order. */
  idleSince: number;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** In a fleet: restarts the shared idle clock while the session is busy here. */
  keepAlive: ReturnType<typeof setInterval> | undefined;
  closing: Promise<void> | undefined;
}

/** A shared-store operation failed: the request is answered 503, never left hanging. */
class SessionStoreError extends Error {}

/** Creates the sessionful legacy leg serving instances from `factory`. */
export function createLegacySessionLeg(factory: McpServerFactory, options: LegacySessionLegOptions): LegacySessionLeg {
  const { idleMs, maxSessions, fleet, onerror } = options;
  const counted = (delta: 1 | -1): void => {
    try {
      options.onSessions?.(delta);
    } catch {
      // An observer never changes how sessions are served.
    }
  };
  const byId = new Map<string, Session>();
  const live = new Set<Session>();
  const recreating = new Map<string, Promise<Session | Response>>();
  let closed = false;

  const report = (error: unknown): void => {
    try {
      onerror(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // Reporting must never change a response.
    }
  };

  /** Runs a shared-store operation, turning its failure into a {@link SessionStoreError}. */
  async function viaStore<T>(what: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new SessionStoreError(`The legacy session store failed to ${what}: ${reason}`, { cause: error });
    }
  }

  const watch =
    fleet &&
    watchRelay({
      fleet,
      waiting: () => [...live].some((session) => session.transport.pushes.size > 0),
      interrupted: failPushes,
    });

  /** Fails every push waiting for an answer the fleet relay may have lost, so its call ends now. */
  function failPushes(reason: string): void {
    let failed = 0;
    for (const session of live) {
      for (const [wireId, id] of session.transport.pushes) {
        session.transport.pushes.delete(wireId);
        failed++;
        session.transport.onmessage?.({
          jsonrpc: '2.0',
          id,
          error: { code: ProtocolErrorCode.InternalError, message: reason, data: { reason: ANSWER_UNREACHABLE } },
        });
      }
    }
    if (failed > 0) report(new Error(`Failed ${failed} waiting push(es): ${reason}`));
  }

  const relay: Relay | undefined = fleet && {
    outbound(transport, message) {
      if (isJSONRPCRequest(message)) {
        const wireId = `${WIRE_ID_PREFIX}${fleet.instanceId}:${String(message.id)}`;
        transport.pushes.set(wireId, message.id);
        watch?.wake();
        return { ...message, id: wireId };
      }
      if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
        const requestId: unknown = message.params?.requestId;
        for (const [wireId, localId] of transport.pushes) {
          if (localId !== requestId) continue;
          transport.pushes.delete(wireId);
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

  /** Sends one notification on every live session; a session that fails to take it is reported, not fatal. */
  function broadcastLocally(notification: FleetNotification, onlyListening: boolean): void {
    for (const session of live) {
      if (onlyListening && session.transport.standaloneStreams === 0) continue;
      const server = session.server instanceof McpServer ? session.server.server : session.server;
      sendNotification(server, notification).catch(report);
    }
  }

  function publish(notification: FleetNotification): void {
    if (fleet === undefined) broadcastLocally(notification, false);
    else fleet.broadcast({ kind: 'notify', notification }).catch(report);
  }

  const notify: ServerNotifier = {
    toolsChanged: () => publish({ kind: 'toolsChanged' }),
    promptsChanged: () => publish({ kind: 'promptsChanged' }),
    resourcesChanged: () => publish({ kind: 'resourcesChanged' }),
    resourceUpdated: (uri) => publish({ kind: 'resourceUpdated', uri }),
  };

  /** Handles a message from another instance (or this one's broadcast). */
  function receive(message: FleetMessage): void {
    switch (message.kind) {
      case 'notify':
        broadcastLocally(message.notification, true);
        return;
      case 'ended': {
        const session = byId.get(message.sessionId);
        if (session !== undefined) void closeSession(session);
        return;
      }
      case 'answer': {
        const session = byId.get(message.sessionId);
        const wireId = isJSONRPCResponse(message.message) ? message.message.id : undefined;
        const localId = typeof wireId === 'string' ? session?.transport.pushes.get(wireId) : undefined;
        if (session === undefined || localId === undefined || typeof wireId !== 'string') {
          report(
            new Error(
              `Dropped a relayed answer: no push ${JSON.stringify(wireId)} of session ${message.sessionId} waits on this instance`,
            ),
          );
          return;
        }
        session.transport.pushes.delete(wireId);
        session.transport.onmessage?.({ ...message.message, id: localId });
        return;
      }
      case 'deliver': {
        const session = byId.get(message.sessionId);
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

  const listening: Promise<(() => Promise<void>) | undefined> = fleet
    ? fleet.subscribe(receive).catch((error: unknown) => {
        report(error);
        return undefined;
      })
    : Promise.resolve(undefined);

  function closeSession(session: Session): Promise<void> {
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
    session.idleTimer = setTimeout(() => void closeSession(session), idleMs);
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
    }
    // The client went away mid-call (its connection closed, or it cancelled the body): cancel its
    // calls at once, so their pushes stop waiting for an answer that cannot arrive.
    const calls = requestIds(requestOptions.parsedBody);
    let gone = false;
    const leave = (): void => {
      if (gone) return;
      gone = true;
      for (const id of calls) cancelCall(session, id);
    };
    if (calls.length > 0) request.signal.addEventListener('abort', leave, { once: true });
    return observeBody(response, (how) => {
      request.signal.removeEventListener('abort', leave);
      if (how === 'cancelled') leave();
      if (standalone) session.transport.standaloneStreams--;
      session.busy--;
      armIdle(session);
    });
  }

  function cancelCall(session: Session, requestId: RequestId): void {
    session.transport.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId, reason: 'The client closed the response stream of this request.' },
    });
  }

  /** Whether this instance may hold one more session; in a fleet, an idle local copy is evicted to make room. */
  function admit(): Response | undefined {
    if (live.size < maxSessions) return undefined;
    if (fleet !== undefined) {
      const idle = oldestIdle();
      if (idle !== undefined) {
        void closeSession(idle); // a local copy only: the session lives on in the shared store
        return undefined;
      }
    }
    const retryAfter = retryAfterSeconds();
    report(new Error(`Refused a legacy session: ${maxSessions} sessions are live`));
    return jsonRpcErrorResponse(
      503,
      -32000,
      `Service Unavailable: this server holds its maximum of ${maxSessions} legacy sessions; retry in ${retryAfter} s`,
      { 'Retry-After': String(retryAfter) },
    );
  }

  function oldestIdle(): Session | undefined {
    let oldest: Session | undefined;
    for (const session of live) {
      if (session.busy === 0 && (oldest === undefined || session.idleSince < oldest.idleSince)) oldest = session;
    }
    return oldest;
  }

  function retryAfterSeconds(): number {
    const idle = oldestIdle();
    if (idle === undefined || !Number.isFinite(idleMs)) return DEFAULT_RETRY_AFTER_SECONDS;
    return Math.max(1, Math.ceil((idle.idleSince + idleMs - Date.now()) / 1000));
  }

  async function createSession(
    request: Request,
    requestOptions: McpHandlerRequestOptions,
    sessionId: () => string,
  ): Promise<Session> {
    const { authInfo } = requestOptions;
    const server = await factory({ era: 'legacy', ...(authInfo !== undefined && { authInfo }), requestInfo: request });
    const session: Session = {
      id: undefined,
      server,
      transport: new SessionTransport(
        {
          sessionIdGenerator: sessionId,
          onsessioninitialized: (id) => {
            session.id = id;
            byId.set(id, session);
            counted(1);
          },
        },
        relay,
      ),
      busy: 0,
      idleSince: Date.now(),
      idleTimer: undefined,
      keepAlive: undefined,
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
    return session;
  }

  async function open(request: Request, requestOptions: McpHandlerRequestOptions): Promise<Response> {
    const refused = admit();
    if (refused !== undefined) return refused;
    const session = await createSession(request, requestOptions, () => crypto.randomUUID());
    let response: Response;
    try {
      response = await serve(session, request, requestOptions);
    } finally {
      // The transport refused the initialize (bad Accept, batch, …): no session was created.
      if (session.id === undefined) await closeSession(session);
    }
    if (fleet !== undefined && session.id !== undefined) {
      const id = session.id;
      const record: SharedSessionRecord = { initialize: initializeParams(requestOptions.parsedBody) };
      try {
        await viaStore('record the new session', () => fleet.save(id, record, idleMs));
      } catch (error) {
        await response.body?.cancel();
        await closeSession(session);
        throw error;
      }
    }
    return response;
  }

  /** This instance's copy of a shared session, recreated from the store when missing; a Response when it cannot be. */
  async function local(
    sessionId: string,
    request: Request,
    requestOptions: McpHandlerRequestOptions,
  ): Promise<Session | Response> {
    const known = byId.get(sessionId);
    if (known !== undefined) {
      if (fleet !== undefined) fleet.touch(sessionId, idleMs).catch(report);
      return known;
    }
    if (fleet === undefined) return sessionNotFound();
    let pending = recreating.get(sessionId);
    if (pending === undefined) {
      pending = recreate(fleet, sessionId, request, requestOptions).finally(() => recreating.delete(sessionId));
      recreating.set(sessionId, pending);
    }
    return pending;
  }

  /** Opens a local copy of a shared session by replaying the client's `initialize` and `initialized` to a fresh instance. */
  async function recreate(
    store: LegacySessionFleet,
    sessionId: string,
    request: Request,
    requestOptions: McpHandlerRequestOptions,
  ): Promise<Session | Response> {
    const record = await viaStore('load the session', () => store.load(sessionId, idleMs));
    if (record === undefined) return sessionNotFound();
    const refused = admit();
    if (refused !== undefined) return refused;
    const session = await createSession(request, requestOptions, () => sessionId);
    const { authInfo } = requestOptions;
    const replay = (body: unknown, headers: Record<string, string>) =>
      session.transport.handleRequest(
        new Request(request.url, {
          method: 'POST',
          headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        }),
        { parsedBody: body, ...(authInfo !== undefined && { authInfo }) },
      );
    try {
      const initialized = await replay({ jsonrpc: '2.0', id: 0, method: 'initialize', params: record.initialize }, {});
      await initialized.text();
      const ready = await replay(
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { 'mcp-session-id': sessionId },
      );
      if (!initialized.ok || ready.status !== 202 || session.id !== sessionId) {
        throw new Error(
          `Could not reopen legacy session ${sessionId} on this instance (initialize answered ${initialized.status})`,
        );
      }
    } catch (error) {
      await closeSession(session);
      throw error;
    }
    armIdle(session);
    return session;
  }

  /**
   * Relays the client's answers to pushes of other instances and maps answers to this instance's
   * pushes back to their local ids; returns what is left for the local transport.
   */
  async function routeAnswers(sessionId: string, body: unknown): Promise<unknown> {
    if (fleet === undefined) return body;
    const messages: unknown[] = Array.isArray(body) ? body : [body];
    const kept: unknown[] = [];
    for (const message of messages) {
      if (!isJSONRPCResponse(message)) {
        kept.push(message);
        continue;
      }
      const owner = pushOwner(message.id);
      if (owner === undefined) kept.push(message);
      else if (owner !== fleet.instanceId) {
        await viaStore('relay an answer', () => relayPatiently(fleet, owner, { kind: 'answer', sessionId, message }));
      } else {
        const transport = byId.get(sessionId)?.transport;
        const localId = transport?.pushes.get(String(message.id));
        if (transport === undefined || localId === undefined) {
          report(
            new Error(
              `Dropped an answer: no push ${JSON.stringify(message.id)} of session ${sessionId} waits on this instance`,
            ),
          );
          continue;
        }
        transport.pushes.delete(String(message.id));
        kept.push({ ...message, id: localId });
      }
    }
    if (Array.isArray(body)) return kept;
    return kept[0];
  }

  async function serveSession(
    sessionId: string,
    request: Request,
    requestOptions: McpHandlerRequestOptions,
  ): Promise<Response> {
    const method = request.method.toUpperCase();
    if (fleet !== undefined && method === 'DELETE' && !byId.has(sessionId)) {
      // Ending a session needs no local copy: forget it and tell every instance.
      const record = await viaStore('load the session', () => fleet.load(sessionId, idleMs));
      if (record === undefined) return sessionNotFound();
      await endEverywhere(fleet, sessionId);
      return new Response(null, { status: 200 });
    }
    let parsedBody = requestOptions.parsedBody;
    if (method === 'POST' && parsedBody !== undefined) {
      parsedBody = await routeAnswers(sessionId, parsedBody);
      if (fleet !== undefined && (parsedBody === undefined || (Array.isArray(parsedBody) && parsedBody.length === 0))) {
        // Every message was an answer relayed to another instance.
        const exists =
          byId.has(sessionId) ||
          (await viaStore('load the session', () => fleet.load(sessionId, idleMs))) !== undefined;
        return exists ? new Response(null, { status: 202 }) : sessionNotFound();
      }
    }
    const session = await local(sessionId, request, requestOptions);
    if (session instanceof Response) return session;
    const response = await serve(session, request, {
      ...requestOptions,
      ...(parsedBody !== undefined && { parsedBody }),
    });
    if (fleet !== undefined && method === 'DELETE' && response.ok) await endEverywhere(fleet, sessionId);
    return response;
  }

  async function endEverywhere(store: LegacySessionFleet, sessionId: string): Promise<void> {
    await viaStore('end the session', async () => {
      await store.remove(sessionId);
      await store.broadcast({ kind: 'ended', sessionId });
    });
  }

  return {
    notify,
    async fetch(request, requestOptions = {}) {
      if (closed) return jsonRpcErrorResponse(503, -32000, 'Service Unavailable: the server is shutting down');
      await listening;
      try {
        const sessionId = request.headers.get('mcp-session-id');
        if (sessionId !== null) return await serveSession(sessionId, request, requestOptions);
        if (request.method.toUpperCase() === 'POST' && opensSession(requestOptions.parsedBody)) {
          return await open(request, requestOptions);
        }
      } catch (error) {
        if (!(error instanceof SessionStoreError)) throw error;
        report(error);
        return jsonRpcErrorResponse(503, -32000, `Service Unavailable: ${error.message}; retry later`, {
          'Retry-After': '1',
        });
      }
      report(new Error('Bad Request: Mcp-Session-Id header is required'));
      return jsonRpcErrorResponse(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    },
    async close() {
      closed = true;
      watch?.stop();
      const stop = await listening;
      await Promise.all([...live].map(closeSession));
      await stop?.().catch(report);
    },
  };

  function sessionNotFound(): Response {
    report(new Error('Session not found'));
    return jsonRpcErrorResponse(404, -32001, 'Session not found');
  }
}

/** The instance a push id names, or `undefined` when `id` is not a fleet push id. */
function pushOwner(id: unknown): string | undefined {
  if (typeof id !== 'string' || !id.startsWith(WIRE_ID_PREFIX)) return undefined;
  const end = id.lastIndexOf(':');
  return end > WIRE_ID_PREFIX.length ? id.slice(WIRE_ID_PREFIX.length, end) : undefined;
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

/** Whether a parsed POST body is (or contains) an `initialize` request. */
function opensSession(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}

/** The params of the `initialize` request in a parsed body. */
function initializeParams(body: unknown): Record<string, unknown> {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const initialize = messages.find((message) => isInitializeRequest(message));
  return initialize !== undefined && isInitializeRequest(initialize) ? { ...initialize.params } : {};
}

/** The ids of the requests in a parsed POST body. */
function requestIds(body: unknown): RequestId[] {
  if (body === undefined) return [];
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => (isJSONRPCRequest(message) ? [message.id] : []));
}

function transportOptions(options: McpHandlerRequestOptions): { authInfo?: AuthInfo; parsedBody?: unknown } {
  return {
    ...(options.authInfo !== undefined && { authInfo: options.authInfo }),
    ...(options.parsedBody !== undefined && { parsedBody: options.parsedBody }),
  };
}
