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
 * session's transport), sessionFleetLink.ts (relays and notifications across the fleet) and
 * sessionRecreator.ts (a local copy recreated from the shared record); this file routes requests.
 */

import type { McpHandlerRequestOptions, McpServerFactory, ServerNotifier } from '@modelcontextprotocol/server';
import { isInitializeRequest } from '@modelcontextprotocol/server';

import { principalFrom } from '../state/binding.js';
import { jsonRpcErrorResponse } from './jsonRpcError.js';
import type { FleetNotification, LegacySessionFleet, SessionRefusal, SharedSessionRecord } from './sessionFleet.js';
import { heldBytes, NODE_BYTES } from './heldBytes.js';
import type { FleetLink } from './sessionFleetLink.js';
import { linkToFleet } from './sessionFleetLink.js';
import { createSessionLocator } from './sessionRecreator.js';
import { SessionStoreError, viaStore } from './sessionStoreError.js';
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

/** The request options of the legacy leg: the SDK's, plus the client's remote address. */
export interface LegacyRequestOptions extends McpHandlerRequestOptions {
  /** The remote address of the client, when known: anonymous sessions count against it. */
  readonly clientAddress?: string | undefined;
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
        client,
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
    if (fleet !== undefined && method === 'DELETE' && response.ok) await endEverywhere(fleet, sessionId);
    return response;
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

/** What a new session keeps: the body with its `initialize` params reduced, those params, and their size. */
interface KeptInitialize {
  readonly body: unknown;
  readonly params: Record<string, unknown>;
  readonly bytes: number;
}

/** The `initialize` params a session keeps: what the SDK server reads of them, nothing else. */
const KEPT_PARAMS = ['protocolVersion', 'capabilities', 'clientInfo'] as const;

/**
 * The parsed body with each `initialize` reduced to the params a session keeps, or the 400 to
 * answer when its declared capabilities or its kept params are over their limits.
 */
function keptInitialize(
  body: unknown,
  limits: Pick<LegacySessionLegOptions, 'maxCapabilitiesBytes' | 'maxSessionBytes' | 'onerror'>,
): KeptInitialize | Response {
  let kept: { params: Record<string, unknown>; bytes: number } | undefined;
  let refusal: Response | undefined;
  const reduce = (message: unknown): unknown => {
    if (refusal !== undefined || !isInitializeRequest(message)) return message;
    const declared = message.params as Record<string, unknown>;
    const capabilitiesBytes = heldBytes(declared['capabilities'] ?? {});
    if (capabilitiesBytes > limits.maxCapabilitiesBytes) {
      refusal = invalidParams(
        `initialize declares ${capabilitiesBytes} bytes of client capabilities (JSON, plus ${NODE_BYTES} per ` +
          `object, array and key), over this server's limit of ${limits.maxCapabilitiesBytes} bytes ` +
          `(maxClientCapabilitiesBytes)`,
        limits.onerror,
      );
      return message;
    }
    const params: Record<string, unknown> = {};
    for (const name of KEPT_PARAMS) if (declared[name] !== undefined) params[name] = declared[name];
    const bytes = heldBytes(params);
    if (bytes > limits.maxSessionBytes) {
      refusal = invalidParams(
        `initialize params (protocol version, capabilities, client info) take ${bytes} bytes (JSON, plus ` +
          `${NODE_BYTES} per object, array and key), over this server's limit of ${limits.maxSessionBytes} bytes ` +
          `per legacy session (maxLegacySessionBytes)`,
        limits.onerror,
      );
      return message;
    }
    kept ??= { params, bytes };
    return { ...message, params };
  };
  const reduced = Array.isArray(body) ? body.map(reduce) : reduce(body);
  if (refusal !== undefined) return refusal;
  return { body: reduced, params: kept?.params ?? {}, bytes: kept?.bytes ?? 0 };
}

function invalidParams(problem: string, onerror: (error: Error) => void): Response {
  try {
    onerror(new Error(`Refused a legacy session: ${problem}`));
  } catch {
    // Reporting must never change a response.
  }
  return jsonRpcErrorResponse(400, -32602, `Invalid params: ${problem}`);
}

/**
 * The opaque id of the client a new session counts against: a hash of its principal when the
 * request is authenticated, else of its remote address (an IPv6 address by its /64 network), else
 * of one bucket shared by every anonymous client without an address.
 */
async function clientOf(requestOptions: LegacyRequestOptions): Promise<string> {
  const principal = principalFrom(requestOptions.authInfo);
  const address = requestOptions.clientAddress;
  const name =
    principal !== undefined
      ? `principal:${principal}`
      : address !== undefined && address !== ''
        ? `address:${addressBucket(address)}`
        : 'unknown';
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(name));
  return [...new Uint8Array(digest, 0, 16)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** An IPv4 address as it is (also when IPv4-mapped); an IPv6 address by its first four groups (its /64 network). */
export function addressBucket(address: string): string {
  const bare = address
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped !== null) return mapped[1] ?? bare;
  if (!bare.includes(':')) return bare;
  const [head = '', tail = ''] = bare.split('::', 2);
  const left = head === '' ? [] : head.split(':');
  const right = bare.includes('::') && tail !== '' ? tail.split(':') : [];
  const groups = bare.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The answer to a session the shared store refused: 429 for the client's own limit, else 503. */
function fleetRefusal(refusal: SessionRefusal, options: LegacySessionLegOptions): Response {
  const retryAfter = Number.isFinite(refusal.retryAfterMs) ? Math.max(1, Math.ceil(refusal.retryAfterMs / 1000)) : 30;
  const headers = { 'Retry-After': String(retryAfter) };
  let status = 503;
  let message: string;
  switch (refusal.limit) {
    case 'maxLegacySessionsPerClient':
      status = 429;
      message =
        `Too Many Requests: this client holds its maximum of ${options.maxPerClient} legacy sessions ` +
        `(maxLegacySessionsPerClient); end one with DELETE or retry in ${retryAfter} s`;
      break;
    case 'maxLegacySessions':
      message =
        `Service Unavailable: the fleet holds its maximum of ${options.maxSessions} legacy sessions ` +
        `(maxLegacySessions); retry in ${retryAfter} s`;
      break;
    case 'legacySessionBudgetBytes':
      message =
        `Service Unavailable: the fleet's legacy sessions hold the ${options.budgetBytes} bytes they may keep ` +
        `(legacySessionBudgetBytes); retry in ${retryAfter} s`;
      break;
  }
  try {
    options.onerror(new Error(`Refused a legacy session: the shared store is at ${refusal.limit}`));
  } catch {
    // Reporting must never change a response.
  }
  return jsonRpcErrorResponse(status, -32000, message, headers);
}
