/**
 * The two request paths of the legacy leg: a POST whose `initialize` opens a session
 * ({@link LegRoutes.openSession}, bound to the principal that opened it: sessionOwner.ts), and a
 * request on an open session ({@link LegRoutes.serveOnSession}: refused exactly as an unknown
 * session unless it carries that principal), with the fleet's part of each: the new session
 * recorded in the shared store, a lost stream resumed, answers relayed, a session ended everywhere.
 */
import type { McpHandlerRequestOptions } from '@modelcontextprotocol/server';
import { isJSONRPCResponse } from '@modelcontextprotocol/server';

import type { LegacyClient } from '../../clientAddressing.js';
import { clientOf } from '../../clientAddressing.js';
import { patiently } from '../fleet/fleetRelay.js';
import { keptInitialize } from '../sessions/keptInitialize.js';
import { fleetRefusal } from '../sessions/sessionAdmission.js';
import { takeLocalAnswers } from '../sessions/pushIds.js';
import type { LegacySessionFleet, SessionRefusal, SharedSessionRecord } from '../sessionFleet.js';
import type { FleetLink } from '../fleet/sessionFleetLink.js';
import type { SessionLocator } from '../fleet/sessionLocator.js';
import { mayUse, ownerOf } from '../sessions/sessionOwner.js';
import { viaStore } from '../fleet/sessionStoreError.js';
import {
  answerResumedStream,
  isStreamEventId,
  newStreamKey,
  resumableStream,
  resumedStream,
} from '../streamResumption.js';
import type { SessionBinding } from '../sessions/session.js';
import type { SessionTable } from '../sessions/sessionTable.js';
import type { Relay } from '../sessions/sessionTransport.js';

/** The request options of the legacy leg: the SDK's, plus whom a new session counts against. */
export interface LegacyRequestOptions extends McpHandlerRequestOptions, LegacyClient {}

/** The session limits of the legacy leg, and where it reports what it refuses. */
export interface LegacySessionLimits {
  /** Idle lifetime of a session in milliseconds (`Infinity`: no idle closing). */
  readonly legacySessionIdleMs: number;
  /** Most sessions held at once by this instance (local copies, in a fleet) and, in a fleet, by the shared store. */
  readonly maxLegacySessions: number;
  /** Largest declared capabilities of an `initialize`, bytes of JSON. */
  readonly maxClientCapabilitiesHeldBytes: number;
  /** Largest initialize params one session keeps, bytes of JSON. */
  readonly maxLegacySessionHeldBytes: number;
  /** Total bytes of initialize params all sessions keep (in the shared store, in a fleet). */
  readonly legacySessionBudgetHeldBytes: number;
  /** Most sessions one client holds (across the fleet, in a fleet). */
  readonly maxLegacySessionsPerClient: number;
  /** Receives serving failures and rejected requests. */
  readonly onerror: (error: Error) => void;
}

/** The parts of one legacy leg that its request paths use, built once by the leg. */
export interface LegParts {
  readonly limits: LegacySessionLimits;
  readonly table: SessionTable;
  /** The hooks every session transport takes: the fleet link's, or the process-only leg's. */
  readonly relay: Relay;
  readonly locator: SessionLocator;
  /** Both set in a fleet, both `undefined` for this process only. */
  readonly fleet: { readonly store: LegacySessionFleet; readonly link: FleetLink } | undefined;
  readonly report: (error: unknown) => void;
  /** Reports and answers 404 for a session no instance holds. */
  readonly notFound: () => Response;
}

/** The two request paths of one legacy leg, over the parts it built. */
export class LegRoutes {
  constructor(private readonly parts: LegParts) {}

  /** Opens a session for an `initialize` POST: kept, admitted, served, and in a fleet recorded in the shared store. */
  async openSession(request: Request, requestOptions: LegacyRequestOptions): Promise<Response> {
    const { limits, table, fleet, relay } = this.parts;
    const opening = keptInitialize(requestOptions.parsedBody, limits);
    if (opening instanceof Response) return opening;
    const { body, params, bytes } = opening;
    const client = await clientOf(requestOptions);
    const refused = table.admit({ bytes, client });
    if (refused !== undefined) return refused;
    const sessionOptions = { ...requestOptions, parsedBody: body };
    const share = { bytes, client };
    const binding: SessionBinding = { owner: ownerOf(requestOptions.authInfo), streamKey: newStreamKey() };
    const session = await table.create(request, sessionOptions, {
      sessionId: () => crypto.randomUUID(),
      share,
      binding,
      relay,
    });
    let response: Response;
    try {
      response = await table.serve(session, request, sessionOptions);
    } finally {
      // The transport refused the initialize (bad Accept, batch, …): no session was created.
      if (session.id === undefined) await table.close(session);
    }
    if (fleet !== undefined && session.id !== undefined) {
      const id = session.id;
      const record: SharedSessionRecord = {
        initialize: params,
        ...(binding.owner !== undefined && { owner: binding.owner }),
        ...(binding.streamKey !== undefined && { streamKey: binding.streamKey }),
      };
      const { maxLegacySessions, legacySessionBudgetHeldBytes, maxLegacySessionsPerClient } = limits;
      const admission = {
        client: client ?? '',
        maxLegacySessions,
        legacySessionBudgetHeldBytes,
        maxLegacySessionsPerClient,
      };
      let refusal: SessionRefusal | undefined;
      try {
        refusal = await viaStore('record the new session', () =>
          fleet.store.save(id, record, limits.legacySessionIdleMs, admission),
        );
      } catch (error) {
        await response.body?.cancel();
        await table.close(session);
        throw error;
      }
      if (refusal !== undefined) {
        await response.body?.cancel();
        await table.close(session);
        return fleetRefusal(refusal, limits);
      }
    }
    return response;
  }

  /**
   * Serves a request on session `sessionId`: here, on a copy recreated from the shared store, or
   * across the fleet. A session that does not exist, or that another principal opened, is answered
   * alike (the leg's 404), before anything else is looked at.
   */
  async serveOnSession(sessionId: string, request: Request, requestOptions: LegacyRequestOptions): Promise<Response> {
    const { table, fleet, report, notFound } = this.parts;
    const method = request.method.toUpperCase();
    const caller = ownerOf(requestOptions.authInfo);
    // An answer waits out a stalled store as its relay does (fleetRelay.ts), rather than being refused.
    const answering = method === 'POST' && carriesAnswers(requestOptions.parsedBody);
    const binding = await this.sessionBindingOf(sessionId, answering);
    if (binding === undefined) return notFound();
    if (!mayUse(binding.owner, caller)) {
      report(new Error(`Refused a request on session ${sessionId}: another principal opened it`));
      return notFound();
    }
    const lastEventId = method === 'GET' ? request.headers.get('last-event-id') : null;
    if (fleet !== undefined && isStreamEventId(lastEventId)) {
      const resumed = resumedStream(lastEventId, { sessionId, streamKey: binding.streamKey });
      if (resumed === undefined) {
        report(new Error(`Refused a resumption on session ${sessionId}: its Last-Event-ID names no stream of it`));
        return notFound();
      }
      // A response stream lost before its response: its requests end now, whichever instance served them.
      report(new Error(`Resumed a lost response stream of session ${sessionId} (instance ${resumed.instance})`));
      return answerResumedStream(fleet.store, resumed, report);
    }
    if (fleet !== undefined && method === 'DELETE' && table.get(sessionId) === undefined) {
      // Ending a session needs no local copy: forget it and tell every instance.
      await endEverywhere(fleet.store, sessionId);
      return new Response(null, { status: 200 });
    }
    let parsedBody = requestOptions.parsedBody;
    if (fleet !== undefined && method === 'POST' && parsedBody !== undefined) {
      const routed = await fleet.link.routeAnswers(sessionId, parsedBody, caller);
      if ('refused' in routed) return routed.refused;
      parsedBody = routed.rest;
      // Every message was an answer relayed to another instance (or dropped: no such push in the fleet).
      if (nothingLeft(parsedBody)) return new Response(null, { status: 202 });
    }
    const session = await this.parts.locator.locate(sessionId, request, requestOptions);
    if (session instanceof Response) return session;
    if (fleet === undefined && method === 'POST' && parsedBody !== undefined) {
      parsedBody = takeLocalAnswers(session.transport, parsedBody, report);
      // Every message was an answer (or dropped: it named no push of this session).
      if (nothingLeft(parsedBody)) return new Response(null, { status: 202 });
    }
    const response = await table.serve(session, request, {
      ...requestOptions,
      ...(parsedBody !== undefined && { parsedBody }),
    });
    if (fleet === undefined) return response;
    if (method === 'DELETE' && response.ok) await endEverywhere(fleet.store, sessionId);
    if (method !== 'POST') return response;
    const stream = { sessionId, streamKey: session.streamKey };
    const version = request.headers.get('mcp-protocol-version');
    return resumableStream(response, fleet.store.instanceId, stream, parsedBody, version);
  }

  /**
   * Whose session `sessionId` is: this instance's copy's binding, else (in a fleet) the shared
   * record's, read `patient`ly while the store stalls when asked; `undefined`: no such session.
   */
  private async sessionBindingOf(sessionId: string, patient: boolean): Promise<SessionBinding | undefined> {
    const local = this.parts.table.get(sessionId);
    if (local !== undefined) return local;
    const { fleet, limits } = this.parts;
    if (fleet === undefined) return undefined;
    const load = () => viaStore('load the session', () => fleet.store.load(sessionId, limits.legacySessionIdleMs));
    const record = await (patient ? patiently(load) : load());
    return record && { owner: record.owner, streamKey: record.streamKey };
  }
}

/** Whether a parsed POST body carries a JSON-RPC response (a client's answer to a push). */
function carriesAnswers(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isJSONRPCResponse(message)) : isJSONRPCResponse(body);
}

/** Whether a POST body routed of its answers has nothing left for the transport. */
function nothingLeft(body: unknown): boolean {
  return body === undefined || (Array.isArray(body) && body.length === 0);
}

async function endEverywhere(store: LegacySessionFleet, sessionId: string): Promise<void> {
  await viaStore('end the session', async () => {
    await store.remove(sessionId);
    await store.broadcast({ kind: 'ended', sessionId });
  });
}
