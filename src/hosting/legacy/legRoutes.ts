/**
 * The two request paths of the legacy leg: a POST whose `initialize` opens a session
 * ({@link openSession}), and a request on an open session ({@link serveOnSession}), with the fleet's
 * part of each: the new session recorded in the shared store, a lost stream resumed, answers
 * relayed, a session ended everywhere.
 */
import type { McpHandlerRequestOptions } from '@modelcontextprotocol/server';

import type { LegacyClient } from '../clientAddressing.js';
import { clientOf } from '../clientOf.js';
import { keptInitialize } from './keptInitialize.js';
import { fleetRefusal } from './sessionAdmission.js';
import type { LegacySessionFleet, SessionRefusal, SharedSessionRecord } from './sessionFleet.js';
import type { FleetLink } from './sessionFleetLink.js';
import type { SessionLocator } from './sessionLocator.js';
import { viaStore } from './sessionStoreError.js';
import { answerResumedStream, resumableStream, resumedStream } from './streamResumption.js';
import type { SessionTable } from './sessionTable.js';

/** The request options of the legacy leg: the SDK's, plus whom a new session counts against. */
export interface LegacyRequestOptions extends McpHandlerRequestOptions, LegacyClient {}

/** The session limits of the legacy leg, and where it reports what it refuses. */
export interface LegacySessionLimits {
  /** Idle lifetime of a session in milliseconds (`Infinity`: no idle closing). */
  readonly idleMs: number;
  /** Most sessions held at once by this instance (local copies, in a fleet) and, in a fleet, by the shared store. */
  readonly maxSessions: number;
  /** Largest declared capabilities of an `initialize`, bytes of JSON. */
  readonly maxCapabilitiesBytes: number;
  /** Largest initialize params one session keeps, bytes of JSON. */
  readonly maxSessionBytes: number;
  /** Total bytes of initialize params all sessions keep (in the shared store, in a fleet). */
  readonly budgetHeldBytes: number;
  /** Most sessions one client holds (across the fleet, in a fleet). */
  readonly maxPerClient: number;
  /** Receives serving failures and rejected requests. */
  readonly onerror: (error: Error) => void;
}

/** The parts of one legacy leg that its request paths use, built once by the leg. */
export interface LegParts {
  readonly limits: LegacySessionLimits;
  readonly table: SessionTable;
  readonly locate: SessionLocator;
  /** Both set in a fleet, both `undefined` for this process only. */
  readonly fleet: { readonly store: LegacySessionFleet; readonly link: FleetLink } | undefined;
  readonly report: (error: unknown) => void;
  /** Reports and answers 404 for a session no instance holds. */
  readonly notFound: () => Response;
}

/** Opens a session for an `initialize` POST: kept, admitted, served, and in a fleet recorded in the shared store. */
export async function openSession(
  parts: LegParts,
  request: Request,
  requestOptions: LegacyRequestOptions,
): Promise<Response> {
  const { limits, table, fleet } = parts;
  const opening = keptInitialize(requestOptions.parsedBody, limits);
  if (opening instanceof Response) return opening;
  const { body, params, bytes } = opening;
  const client = await clientOf(requestOptions);
  const refused = table.admit({ bytes, client });
  if (refused !== undefined) return refused;
  const sessionOptions = { ...requestOptions, parsedBody: body };
  const share = { bytes, client };
  const session = await table.create(request, sessionOptions, {
    sessionId: () => crypto.randomUUID(),
    share,
    relay: fleet?.link.relay,
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
    const record: SharedSessionRecord = { initialize: params };
    const { maxSessions, budgetHeldBytes, maxPerClient } = limits;
    const admission = { client: client ?? '', maxSessions, budgetHeldBytes, maxPerClient };
    let refusal: SessionRefusal | undefined;
    try {
      refusal = await viaStore('record the new session', () => fleet.store.save(id, record, limits.idleMs, admission));
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

/** Serves a request on session `sessionId`: here, on a copy recreated from the shared store, or across the fleet. */
export async function serveOnSession(
  parts: LegParts,
  sessionId: string,
  request: Request,
  requestOptions: LegacyRequestOptions,
): Promise<Response> {
  const { table, fleet, report, notFound } = parts;
  const idleMs = parts.limits.idleMs;
  const method = request.method.toUpperCase();
  const resumed =
    fleet !== undefined && method === 'GET' ? resumedStream(request.headers.get('last-event-id')) : undefined;
  if (fleet !== undefined && resumed !== undefined) {
    // A response stream lost before its response: its requests end now, whichever instance served them.
    report(new Error(`Resumed a lost response stream of session ${sessionId} (instance ${resumed.instance})`));
    return answerResumedStream(fleet.store, resumed);
  }
  if (fleet !== undefined && method === 'DELETE' && table.get(sessionId) === undefined) {
    // Ending a session needs no local copy: forget it and tell every instance.
    const record = await viaStore('load the session', () => fleet.store.load(sessionId, idleMs));
    if (record === undefined) return notFound();
    await endEverywhere(fleet.store, sessionId);
    return new Response(null, { status: 200 });
  }
  let parsedBody = requestOptions.parsedBody;
  if (fleet !== undefined && method === 'POST' && parsedBody !== undefined) {
    const routed = await fleet.link.routeAnswers(sessionId, parsedBody);
    if ('refused' in routed) return routed.refused;
    parsedBody = routed.rest;
    if (parsedBody === undefined || (Array.isArray(parsedBody) && parsedBody.length === 0)) {
      // Every message was an answer relayed to another instance (or dropped: no such push in the fleet).
      const exists =
        table.get(sessionId) !== undefined ||
        (await viaStore('load the session', () => fleet.store.load(sessionId, idleMs))) !== undefined;
      return exists ? new Response(null, { status: 202 }) : notFound();
    }
  }
  const session = await parts.locate(sessionId, request, requestOptions);
  if (session instanceof Response) return session;
  const response = await table.serve(session, request, {
    ...requestOptions,
    ...(parsedBody !== undefined && { parsedBody }),
  });
  if (fleet === undefined) return response;
  if (method === 'DELETE' && response.ok) await endEverywhere(fleet.store, sessionId);
  if (method !== 'POST') return response;
  return resumableStream(response, fleet.store.instanceId, parsedBody, request.headers.get('mcp-protocol-version'));
}

async function endEverywhere(store: LegacySessionFleet, sessionId: string): Promise<void> {
  await viaStore('end the session', async () => {
    await store.remove(sessionId);
    await store.broadcast({ kind: 'ended', sessionId });
  });
}
