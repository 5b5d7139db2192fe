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
 * legacy/ is split by concept, each a file or a folder: the fleet contract (sessionFleet.ts, what a
 * backend implements); sessions/ (the sessions this instance holds: their table and admission,
 * transport, push ids, owner, kept `initialize`, the end of their response bodies); fleet/ (this
 * instance's link to the fleet: the relay of answers and its watch, the locator that recreates a
 * local copy, the masking of store failures); streamResumption.ts (a response stream resumed on
 * any instance); and leg/, the door: this file and legRoutes.ts.
 *
 * The parts, built here once and each handed the ones it uses: the {@link SessionTable} (the
 * sessions this instance holds), the {@link FleetLink} (relays and notifications across the fleet;
 * given the table, it gives the hooks each session's transport takes as it opens), the
 * {@link SessionLocator} (a local copy recreated from the shared record), the {@link LegRoutes}
 * (the request paths: opening a session, serving one); this file routes requests to them and
 * closes them.
 */

import type { ServerNotifier, McpServerFactory } from '@modelcontextprotocol/server';
import { isInitializeRequest } from '@modelcontextprotocol/server';

import { jsonRpcErrorResponse } from '../../jsonRpcError.js';
import type { LegacyRequestOptions, LegacySessionLimits } from './legRoutes.js';
import { LegRoutes } from './legRoutes.js';
import type { FleetNotification, LegacySessionFleet } from '../sessionFleet.js';
import { FleetLink } from '../fleet/sessionFleetLink.js';
import { LocalRelay } from '../sessions/pushIds.js';
import { SessionLocator } from '../fleet/sessionLocator.js';
import { SessionStoreError, maskBackendFailure } from '../fleet/sessionStoreError.js';
import { SessionTable } from '../sessions/sessionTable.js';

export type { LegacyRequestOptions } from './legRoutes.js';

/** Settings of {@link createLegacySessionLeg}: the session limits, and the fleet. */
export interface LegacySessionLegOptions extends LegacySessionLimits {
  /** Where sessions are shared with other instances; `undefined`: this process only. */
  readonly sessionFleet: LegacySessionFleet | undefined;
  /** In a fleet: the largest client answer relayed to another instance, in bytes. */
  readonly maxRelayedAnswerBytes: number;
  /** Told each time a session opens here (`+1`, its `initialize` accepted) or closes (`-1`); a throw is ignored. */
  readonly onSessions?: ((delta: 1 | -1) => void) | undefined;
}

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
  return new SessionLeg(factory, options);
}

/** The legacy leg of one instance: its parts, built once in one direction, and whether it closed. */
class SessionLeg implements LegacySessionLeg {
  readonly notify: ServerNotifier;
  private readonly table: SessionTable;
  /** Set in a fleet: this instance's link to it. */
  private readonly link: FleetLink | undefined;
  private readonly routes: LegRoutes;
  private closed = false;

  constructor(
    factory: McpServerFactory,
    private readonly options: LegacySessionLegOptions,
  ) {
    const { legacySessionIdleMs, sessionFleet } = options;
    const report = (error: unknown): void => this.report(error);
    const counted = (delta: 1 | -1): void => {
      try {
        options.onSessions?.(delta);
      } catch {
        // An observer never changes how sessions are served.
      }
    };
    // Built in one direction: the table, then the fleet link given the table, then the locator given both.
    const table = new SessionTable(factory, { ...options, report, counted });
    const link =
      sessionFleet &&
      new FleetLink(sessionFleet, table, {
        legacySessionIdleMs,
        maxRelayedAnswerBytes: options.maxRelayedAnswerBytes,
        report,
      });
    const notFound = (): Response => {
      report(new Error('Session not found'));
      return jsonRpcErrorResponse(404, -32001, 'Session not found');
    };
    const relay = link?.relay ?? new LocalRelay();
    const locator = new SessionLocator({ table, sessionFleet, relay, legacySessionIdleMs, report, notFound });
    const fleetParts = sessionFleet && link && { store: sessionFleet, link };
    this.table = table;
    this.link = link;
    this.routes = new LegRoutes({ limits: options, table, relay, locator, fleet: fleetParts, report, notFound });
    this.notify = notifier((notification) =>
      link === undefined ? table.notifyAll(notification, false) : link.publish(notification),
    );
  }

  /** Serves one legacy HTTP request (POST, GET or DELETE), opening a session on `initialize`. */
  async fetch(request: Request, requestOptions: LegacyRequestOptions = {}): Promise<Response> {
    if (this.closed) return jsonRpcErrorResponse(503, -32000, 'Service Unavailable: the server is shutting down');
    await this.link?.subscribed;
    try {
      return await this.route(request, requestOptions);
    } catch (error) {
      if (!(error instanceof SessionStoreError)) throw error;
      const report = (cause: unknown): void => this.report(cause);
      return jsonRpcErrorResponse(503, -32000, maskBackendFailure('serve the request', error, report), {
        'Retry-After': '1',
      });
    }
  }

  /** Closes every session (its local copies, in a fleet) and refuses further requests. */
  async close(): Promise<void> {
    this.closed = true;
    await this.link?.drain();
    await Promise.all([...this.table.live].map((session) => this.table.close(session)));
    await this.link?.close();
  }

  private async route(request: Request, requestOptions: LegacyRequestOptions): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) return this.routes.serveOnSession(sessionId, request, requestOptions);
    if (request.method.toUpperCase() === 'POST' && opensSession(requestOptions.parsedBody)) {
      return this.routes.openSession(request, requestOptions);
    }
    this.report(new Error('Bad Request: Mcp-Session-Id header is required'));
    return jsonRpcErrorResponse(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  }

  /** Hands `error` to the server's error sink; reporting never changes a response. */
  private report(error: unknown): void {
    try {
      this.options.onerror(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // Reporting must never change a response.
    }
  }
}

/** The notifier that hands each notification to `publish`. */
function notifier(publish: (notification: FleetNotification) => void): ServerNotifier {
  return {
    toolsChanged: () => publish({ kind: 'toolsChanged' }),
    promptsChanged: () => publish({ kind: 'promptsChanged' }),
    resourcesChanged: () => publish({ kind: 'resourcesChanged' }),
    resourceUpdated: (uri) => publish({ kind: 'resourceUpdated', uri }),
  };
}

/** Whether a parsed POST body is (or contains) an `initialize` request. */
function opensSession(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}
