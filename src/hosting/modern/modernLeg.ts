/**
 * The modern (2026-07-28) leg of the dual-era hosting. A POST has one of two paths, chosen by one
 * rule (`laneRequest`): the modern lane, one long-lived instance serving request after request,
 * for a server that allows it; else the SDK's own hosting (`createMcpHandler`), whose factory makes
 * a fresh instance for every request. Whatever the lane leaves is the SDK handler's.
 *
 * A registration made while the server is served is one event (`InstanceReuse.watch`), handled
 * here alone: the lane is replaced by one of the server as it is now (none when it no longer allows
 * reuse), and the lane replaced closes once its calls in flight have ended.
 */
import type { AuthInfo, CreateMcpHandlerOptions, McpServerFactory, ServerNotifier } from '@modelcontextprotocol/server';
import { createMcpHandler } from '@modelcontextprotocol/server';

import type { HostedPost, Reply } from '../exchange.js';
import { handedRequest } from '../exchange.js';
import type { InstanceReuse } from '../../server/instanceReuse.js';
import type { ModernLane } from './modernLane.js';
import { createModernLane } from './modernLane.js';

/** See the module comment. */
export interface ModernLeg {
  /** Serves a POST whose body the hosting has parsed: on the lane when it takes it, else by the SDK handler. */
  post(post: HostedPost): Promise<Reply>;
  /** The SDK handler's `fetch`, for what only it serves (GET, DELETE, refusals of legacy traffic). */
  fetch(request: Request, init: { authInfo?: AuthInfo }): Promise<Response>;
  readonly notify: ServerNotifier;
  close(): Promise<void>;
}

/** The modern leg of `factory` (on a lane of `reuse.create` while `reuse` allows it), with the SDK handler's `options`. */
export function createModernLeg(
  factory: McpServerFactory,
  reuse: InstanceReuse | undefined,
  options: CreateMcpHandlerOptions,
): ModernLeg {
  const laneNow = (): ModernLane | undefined => (reuse?.allowed === true ? createModernLane(reuse.create) : undefined);
  let lane = laneNow();
  /** Replaced lanes whose calls are still in flight (closed with the leg). */
  const replaced = new Set<ModernLane>();
  const stopWatching = reuse?.watch(() => {
    const before = lane;
    lane = laneNow();
    if (before === undefined) return;
    replaced.add(before);
    void before.closeWhenIdle().then(() => replaced.delete(before));
  });
  const handler = createMcpHandler(factory, options);
  return {
    async post(post) {
      const laned = lane === undefined ? undefined : await lane.serve(post);
      if (laned !== undefined) return laned;
      const { authInfo, parsedBody } = post;
      return handler.fetch(handedRequest(post, true), { ...(authInfo !== undefined && { authInfo }), parsedBody });
    },
    fetch: (request, init) => handler.fetch(request, init),
    notify: handler.notify,
    async close() {
      stopWatching?.();
      await Promise.all([lane?.close(), ...[...replaced].map((old) => old.close()), handler.close()]);
    },
  };
}
