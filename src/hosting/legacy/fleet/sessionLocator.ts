/**
 * In a fleet, a request may reach an instance that has no copy of its session: the copy is
 * recreated from the shared record by replaying the client's `initialize` and `initialized` to a
 * fresh server. Concurrent requests for one session share one recreation.
 */
import type { McpHandlerRequestOptions } from '@modelcontextprotocol/server';

import type { LegacySessionFleet } from '../sessionFleet.js';
import { heldBytes } from '../../../state/heldBytes.js';
import { viaStore } from './sessionStoreError.js';
import type { Session } from '../sessions/session.js';
import type { SessionTable } from '../sessions/sessionTable.js';
import type { Relay } from '../sessions/sessionTransport.js';

const ACCEPT_BOTH = 'application/json, text/event-stream';

/** What the locator needs from the leg. */
export interface SessionLocatorOptions {
  readonly table: SessionTable;
  readonly sessionFleet: LegacySessionFleet | undefined;
  /** The hooks for the transport of a recreated copy (the fleet link's). */
  readonly relay: Relay;
  readonly legacySessionIdleMs: number;
  readonly report: (error: unknown) => void;
  /** The 404 answer for an unknown session. */
  readonly notFound: () => Response;
}

/** Finds this instance's copy of a session: the local copy (its shared idle clock restarted), else one recreated from the store. */
export class SessionLocator {
  /** Recreations under way, by session id: concurrent requests for one session share one. */
  private readonly recreating = new Map<string, Promise<Session | Response>>();

  constructor(private readonly options: SessionLocatorOptions) {}

  /** This instance's copy of session `sessionId`; a Response (404, 503) when there is none to serve. */
  async locate(
    sessionId: string,
    request: Request,
    requestOptions: McpHandlerRequestOptions,
  ): Promise<Session | Response> {
    const { table, sessionFleet, legacySessionIdleMs, report, notFound } = this.options;
    const known = table.get(sessionId);
    if (known !== undefined) {
      if (sessionFleet !== undefined) sessionFleet.touch(sessionId, legacySessionIdleMs).catch(report);
      return known;
    }
    if (sessionFleet === undefined) return notFound();
    let pending = this.recreating.get(sessionId);
    if (pending === undefined) {
      pending = this.recreate(sessionFleet, sessionId, request, requestOptions).finally(() =>
        this.recreating.delete(sessionId),
      );
      this.recreating.set(sessionId, pending);
    }
    return pending;
  }

  /** Opens a local copy of a shared session by replaying the client's `initialize` and `initialized` to a fresh instance. */
  private async recreate(
    store: LegacySessionFleet,
    sessionId: string,
    request: Request,
    requestOptions: McpHandlerRequestOptions,
  ): Promise<Session | Response> {
    const { table, relay, legacySessionIdleMs, notFound } = this.options;
    const record = await viaStore('load the session', () => store.load(sessionId, legacySessionIdleMs));
    if (record === undefined) return notFound();
    // A copy counts against this instance's count and bytes; the client's share is in the shared store.
    const share = { bytes: heldBytes(record.initialize), client: undefined };
    const refused = table.admit(share);
    if (refused !== undefined) return refused;
    const binding = { owner: record.owner, streamKey: record.streamKey };
    const session = await table.create(request, requestOptions, { sessionId: () => sessionId, share, binding, relay });
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
      await table.close(session);
      throw error;
    }
    table.armIdle(session);
    return session;
  }
}
