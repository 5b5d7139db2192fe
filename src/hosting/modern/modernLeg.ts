/**
 * The modern (2026-07-28) leg of the dual-era hosting: the SDK's `createMcpHandler` (its instances
 * pooled when the server allows it), and in front of it, for such a server, the modern lane that
 * serves most requests on one long-lived instance. Whatever the lane leaves is the SDK handler's.
 *
 * A registration made while the server is served is one event (`InstanceReuse.watch`), handled
 * here alone: the lane and the pool are replaced by ones of the server as it is now (none when it
 * no longer allows reuse), and the lane replaced closes once its calls in flight have ended.
 */
import type { AuthInfo, CreateMcpHandlerOptions, McpServerFactory, ServerNotifier } from '@modelcontextprotocol/server';
import { createMcpHandler } from '@modelcontextprotocol/server';

import type { Reply } from '../reply.js';
import type { InstanceReuse } from '../../server/instanceReuse.js';
import { pooledFactory } from './instancePool.js';
import type { ModernLane } from './modernLane.js';
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

/** What serves the server as it is now: the lane and the pool, or the factory alone when reuse is not allowed. */
interface Reused {
  readonly lane: ModernLane | undefined;
  readonly factory: McpServerFactory;
}

/** The modern leg of `factory` (of `reuse.create` while `reuse` allows reusing its instances), with the SDK handler's `options`. */
export function createModernLeg(
  factory: McpServerFactory,
  reuse: InstanceReuse | undefined,
  options: CreateMcpHandlerOptions,
): ModernLeg {
  const reusedNow = (): Reused =>
    reuse?.allowed === true
      ? { lane: createModernLane(reuse.create), factory: pooledFactory(reuse.create) }
      : { lane: undefined, factory };
  let reused = reusedNow();
  /** Replaced lanes whose calls are still in flight (closed with the leg). */
  const replaced = new Set<ModernLane>();
  const stopWatching = reuse?.watch(() => {
    const { lane } = reused;
    reused = reusedNow();
    if (lane === undefined) return;
    replaced.add(lane);
    void lane.closeWhenIdle().then(() => replaced.delete(lane));
  });
  const handler = createMcpHandler((ctx) => reused.factory(ctx), options);
  return {
    async post(request, parsedBody, authInfo, clientLeft, linked) {
      const { lane } = reused;
      const laned = lane === undefined ? undefined : await lane.serve(request, parsedBody, authInfo, clientLeft);
      return laned ?? handler.fetch(linked(), { ...(authInfo !== undefined && { authInfo }), parsedBody });
    },
    fetch: (request, init) => handler.fetch(request, init),
    notify: handler.notify,
    lane: reused.lane !== undefined,
    async close() {
      stopWatching?.();
      await Promise.all([reused.lane?.close(), ...[...replaced].map((lane) => lane.close()), handler.close()]);
    },
  };
}
