/**
 * The modern (2026-07-28) leg of the dual-era hosting: the SDK's `createMcpHandler` (its instances
 * pooled when the server allows it), and in front of it, for such a server, the modern lane that
 * serves most requests on one long-lived instance. Whatever the lane leaves is the SDK handler's.
 */
import type { AuthInfo, CreateMcpHandlerOptions, McpServerFactory, ServerNotifier } from '@modelcontextprotocol/server';
import { createMcpHandler } from '@modelcontextprotocol/server';

import type { Reply } from '../reply.js';
import { isReusable } from '../../server/instanceReuse.js';
import { modernFactoryOf } from './instancePool.js';
import { createModernLane } from './modernLane.js';

/** See the module comment. */
export interface ModernLeg {
  /**
   * Serves a POST whose body the hosting has parsed (`parsedBody`): through the lane when it takes
   * it, else the SDK handler gets `linked()` (the request following `clientLeft`, when that is given
   * apart; see `ServeOptions`).
   */
  post(
    request: Request,
    parsedBody: unknown,
    authInfo: AuthInfo | undefined,
    clientLeft: AbortSignal | undefined,
    linked: () => Request,
  ): Promise<Reply>;
  /** The SDK handler's `fetch`, for what only it serves (GET, DELETE, refusals of legacy traffic). */
  fetch(request: Request, init: { authInfo?: AuthInfo }): Promise<Response>;
  readonly notify: ServerNotifier;
  /** Whether there is a lane (the server's instances may serve one request after another). */
  readonly lane: boolean;
  close(): Promise<void>;
}

/** The modern leg of `factory`, with the SDK handler's `options`. */
export function createModernLeg(factory: McpServerFactory, options: CreateMcpHandlerOptions): ModernLeg {
  const handler = createMcpHandler(modernFactoryOf(factory), options);
  const lane = isReusable(factory) ? createModernLane(factory) : undefined;
  return {
    async post(request, parsedBody, authInfo, clientLeft, linked) {
      const laned = lane === undefined ? undefined : await lane.serve(request, parsedBody, authInfo, clientLeft);
      return laned ?? handler.fetch(linked(), { ...(authInfo !== undefined && { authInfo }), parsedBody });
    },
    fetch: (request, init) => handler.fetch(request, init),
    notify: handler.notify,
    lane: lane !== undefined,
    async close() {
      await Promise.all([lane?.close(), handler.close()]);
    },
  };
}
