/**
 * The sessionful legacy (2025-11-25) leg: one factory instance per session, connected to a
 * Streamable HTTP transport that keeps the session's response streams, so server-to-client
 * requests (elicitation, sampling, roots) reach the client mid-call.
 *
 * With a {@link LegacySessionFleet}, a session lives in the shared store and each instance keeps a
 * local copy it can recreate at any time (by replaying the client's `initialize`): any instance
 * serves any request. The call's own response stream stays where the call runs; the client's
 * answer to a push, and messages for a GET stream held elsewhere, are relayed between instances.
 *
 * The parts: sessionTable.ts (the sessions this instance holds), sessionTransport.ts (one
 * session's transport), sessionFleetLink.ts (relays and notifications across the fleet),
 * sessionLocator.ts (a local copy recreated from the shared record), sessionAdmission.ts (the
 * session limits), keptInitialize.ts and clientOf.ts (what a new session keeps, whom it counts
 * against; the handler decides the address or proxy in clientAddressing.ts), streamResumption.ts (a
 * call's lost stream ends at once); this file routes requests.
 */

import type { McpHandlerRequestOptions, McpServerFactory, ServerNotifier } from '@modelcontextprotocol/server';
import { isInitializeRequest } from '@modelcontextprotocol/server';

import type { LegacyClient } from '../clientAddressing.js';
import { clientOf } from '../clientOf.js';
import { jsonRpcErrorResponse } from '../jsonRpcError.js';
import { keptInitialize } from './keptInitialize.js';
import { fleetRefusal } from './sessionAdmission.js';
import type { FleetNotification, LegacySessionFleet, SessionRefusal, SharedSessionRecord } from './sessionFleet.js';
import type { FleetLink } from './sessionFleetLink.js';
import { linkToFleet } from './sessionFleetLink.js';
import { createSessionLocator } from './sessionLocator.js';
import { SessionStoreError, viaStore } from './sessionStoreError.js';
import { answerResumedStream, resumableStream, resumedStream } from './streamResumption.js';
import type { SessionTable } from './sessionTable.js';
import { createSessionTable } from './sessionTable.js';

/** Settings of {@link createLegacySessionLeg}. */
export interface LegacySessionLegOptions {
  /** Idle lifetime of a session in milliseconds (`Infinity`: no idle closing). */
  readonly idleMs: number;
  /** Most sessions held at once by this instance (local copies, in a fleet) and, in a fleet, by the shared store. */
  readonly maxSessions: number;
  /** Largest declared capabilities of an `initialize`, bytes of JSON. */
  readonly maxCapabilitiesBytes: number;
  /** Largest initialize params one session keeps, bytes of JSON. */
  readonly maxSessionBytes: number;
  /** Total bytes of initialize params all sessions keep (in the shared store, in a fleet). */
  readonly budgetBytes: number;
  /** Most sessions one client holds (across the fleet, in a fleet). */
  readonly maxPerClient: number;
  /** Where sessions are shared with other instances; `undefined`: this process only. */
  readonly fleet: LegacySessionFleet | undefined;
  /** In a fleet: the largest client answer relayed to another instance, in bytes. */
  readonly maxRelayedAnswerBytes: number;
  /** Receives serving failures and rejected requests. */
  readonly onerror: (error: Error) => void;
  /** Told each time a session opens here (`+1`, its `initialize` accepted) or closes (`-1`); a throw is ignored. */
  readonly onSessions?: ((delta: 1 | -1) => void) | undefined;
}

/** The request options of the legacy leg: the SDK's, plus whom a new session counts against. */
export interface LegacyRequestOptions extends McpHandlerRequestOptions, LegacyClient {}

/** A fetch-shaped handler for legacy traffic that owns its sessions. */
export interface LegacySessionLeg {
  /** Serves one legacy HTTP request (POST, GET or DELETE), opening a session on `initialize`. */
  fetch(request: Request, options?: LegacyRequestOptions): Promise<Response>;
  /** Closes every session (its local copies, in a fleet) and refuses further requests. */
  close(): Promise<void>;
  /** Publishes list-changed and resource-updated notifications to every live session (every instance's, in a fleet). */
  readonly notify: ServerNotifier;
}

/** Creates the sessionful legacy leg serving instances from `factory`. */
export function createLegacySessionLeg(factory: McpServerFactory, options: LegacySessionLegOptions): LegacySessionLeg {
  const { idleMs, fleet } = options;
  const report = (error: unknown): void => {
    try {
      options.onerror(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // Reporting must never change a response.
    }
  };
  const counted = (delta: 1 | -1): void => {
    try {
      options.onSessions?.(delta);
    } catch {
      // An observer never changes how sessions are served.
    }
  };
  const link: FleetLink | undefined =
    fleet && linkToFleet(fleet, () => table, { idleMs, maxRelayedAnswerBytes: options.maxRelayedAnswerBytes, report });
  const table: SessionTable = createSessionTable(factory, {
    idleMs,
    maxSessions: options.maxSessions,
    budgetBytes: options.budgetBytes,
    maxPerClient: options.maxPerClient,
    fleet,
    relay: () => link?.relay,
    report,
    counted,
  });
  const sessionNotFound = (): Response => {
    report(new Error('Session not found'));
    return jsonRpcErrorResponse(404, -32001, 'Session not found');
  };
  const locate = createSessionLocator({ table, fleet, idleMs, report, notFound: sessionNotFound });
  let closed = false;

  const publish = (notification: FleetNotification): void =>
    link === undefined ? table.notifyAll(notification, false) : link.publish(notification);
  const notify: ServerNotifier = {
    toolsChanged: () => publish({ kind: 'toolsChanged' }),
    promptsChanged: () => publish({ kind: 'promptsChanged' }),
    resourcesChanged: () => publish({ kind: 'resourcesChanged' }),
    resourceUpdated: (uri) => publish({ kind: 'resourceUpdated', uri }),
  };

  async function open(request: Request, requestOptions: LegacyRequestOptions): Promise<Response> {
    const opening = keptInitialize(requestOptions.parsedBody, options);
    if (opening instanceof Response) return opening;
    const { body, params, bytes } = opening;
    const client = await clientOf(requestOptions);
    const refused = table.admit({ bytes, client });
    if (refused !== undefined) return refused;
    const sessionOptions = { ...requestOptions, parsedBody: body };
    const session = await table.create(request, sessionOptions, () => crypto.randomUUID(), { bytes, client });
    let response: Response;
    try {
      response = await table.serve(session, request, sessionOptions);
    } finally {
      // The transport refused the initialize (bad Accept, batch, …): no session was created.
      if (session.id === undefined) await table.close(session);
    }
    if (fleet !== undefined && session.id !== undefined) {
      const id = session.id;
      const record: SharedSessionRecord = { initialize: params };
      const admission = {
        client: client ?? '',
        maxSessions: options.maxSessions,
        budgetBytes: options.budgetBytes,
        maxPerClient: options.maxPerClient,
      };
      let refusal: SessionRefusal | undefined;
      try {
        refusal = await viaStore('record the new session', () => fleet.save(id, record, idleMs, admission));
      } catch (error) {
        await response.body?.cancel();
        await table.close(session);
        throw error;
      }
      if (refusal !== undefined) {
        await response.body?.cancel();
        await table.close(session);
        return fleetRefusal(refusal, options);
      }
    }
    return response;
  }

  async function serveSession(
    sessionId: string,
    request: Request,
    requestOptions: LegacyRequestOptions,
  ): Promise<Response> {
    const method = request.method.toUpperCase();
    const resumed =
      fleet !== undefined && method === 'GET' ? resumedStream(request.headers.get('last-event-id')) : undefined;
    if (fleet !== undefined && resumed !== undefined) {
      // A response stream lost before its response: its requests end now, whichever instance served them.
      report(new Error(`Resumed a lost response stream of session ${sessionId} (instance ${resumed.instance})`));
      return answerResumedStream(fleet, resumed);
    }
    if (fleet !== undefined && method === 'DELETE' && table.get(sessionId) === undefined) {
      // Ending a session needs no local copy: forget it and tell every instance.
      const record = await viaStore('load the session', () => fleet.load(sessionId, idleMs));
      if (record === undefined) return sessionNotFound();
      await endEverywhere(fleet, sessionId);
      return new Response(null, { status: 200 });
    }
    let parsedBody = requestOptions.parsedBody;
    if (link !== undefined && fleet !== undefined && method === 'POST' && parsedBody !== undefined) {
      const routed = await link.routeAnswers(sessionId, parsedBody);
      if ('refused' in routed) return routed.refused;
      parsedBody = routed.rest;
      if (parsedBody === undefined || (Array.isArray(parsedBody) && parsedBody.length === 0)) {
        // Every message was an answer relayed to another instance (or dropped: no such push in the fleet).
        const exists =
          table.get(sessionId) !== undefined ||
          (await viaStore('load the session', () => fleet.load(sessionId, idleMs))) !== undefined;
        return exists ? new Response(null, { status: 202 }) : sessionNotFound();
      }
    }
    const session = await locate(sessionId, request, requestOptions);
    if (session instanceof Response) return session;
    const response = await table.serve(session, request, {
      ...requestOptions,
      ...(parsedBody !== undefined && { parsedBody }),
    });
    if (fleet === undefined) return response;
    if (method === 'DELETE' && response.ok) await endEverywhere(fleet, sessionId);
    if (method !== 'POST') return response;
    return resumableStream(response, fleet.instanceId, parsedBody, request.headers.get('mcp-protocol-version'));
  }

  async function route(request: Request, requestOptions: LegacyRequestOptions): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) return serveSession(sessionId, request, requestOptions);
    if (request.method.toUpperCase() === 'POST' && opensSession(requestOptions.parsedBody)) {
      return open(request, requestOptions);
    }
    report(new Error('Bad Request: Mcp-Session-Id header is required'));
    return jsonRpcErrorResponse(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  }

  return {
    notify,
    async fetch(request, requestOptions = {}) {
      if (closed) return jsonRpcErrorResponse(503, -32000, 'Service Unavailable: the server is shutting down');
      await link?.subscribed;
      try {
        return await route(request, requestOptions);
      } catch (error) {
        if (!(error instanceof SessionStoreError)) throw error;
        report(error);
        return jsonRpcErrorResponse(503, -32000, `Service Unavailable: ${error.message}; retry later`, {
          'Retry-After': '1',
        });
      }
    },
    async close() {
      closed = true;
      await link?.drain();
      await Promise.all([...table.live].map((session) => table.close(session)));
      await link?.close();
    },
  };
}

async function endEverywhere(store: LegacySessionFleet, sessionId: string): Promise<void> {
  await viaStore('end the session', async () => {
    await store.remove(sessionId);
    await store.broadcast({ kind: 'ended', sessionId });
  });
}

/** Whether a parsed POST body is (or contains) an `initialize` request. */
function opensSession(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}
