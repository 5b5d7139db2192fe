/**
 * Long-lived SDK server instances for the modern era: the SDK's `createMcpHandler` asks its factory
 * for an instance per request; this factory hands out an idle instance (one that has finished its
 * previous exchange) instead of building a new server and registering every tool again.
 *
 * Built on the SDK's public API only: the factory contract (`McpServerFactory`, whose context says
 * the era and the request), an instance's `onclose` (the SDK's modern path calls it when the
 * exchange's transport has closed) and `transport` (undefined when it serves nothing). Each request
 * still gets its own transport, so its context, `authInfo`, abort signal and response stay its own:
 * the SDK scopes them to the exchange, not to the instance.
 *
 * An instance goes back to the pool only when its exchange ended with its answer sent. An exchange
 * whose client left (the request's signal aborted) may still have a handler running after the
 * close, and the SDK sends a handler's related notifications and requests through whatever
 * transport the instance holds when it sends them: such an instance is dropped, never reused. (A
 * handler that goes on sending after it has returned its result is the one case this cannot see;
 * a proposed SDK change, sending a request's related messages only on its own exchange, removes it.)
 */
import type { McpRequestContext, McpServer, McpServerFactory, Server } from '@modelcontextprotocol/server';

import { isReusable, revisionOf } from '../../server/instanceReuse.js';

/** Idle instances kept at most: the pool grows to the peak of concurrent modern requests up to this. */
export const DEFAULT_MAX_IDLE_INSTANCES = 64;

/** What a pooled factory counts (for tests and the bench). */
export interface InstancePoolStats {
  /** Instances built. */
  created: number;
  /** Requests served by an instance taken from the pool. */
  reused: number;
  /** Instances not returned: their client left mid-exchange, or the pool was full. */
  dropped: number;
}

/** A factory for `createMcpHandler` that reuses instances of `create` across modern requests. */
export interface PooledFactory extends McpServerFactory {
  readonly stats: InstancePoolStats;
}

/**
 * Wraps `create`, which must build the same server whatever the request (it is not given the
 * request's context), into a factory that reuses idle instances for modern (2026-07-28) requests.
 * Legacy requests, and requests without their `Request`, get a fresh instance as before.
 */
export function pooledFactory(create: () => McpServer, maxIdle = DEFAULT_MAX_IDLE_INSTANCES): PooledFactory {
  const idle: McpServer[] = [];
  const stats: InstancePoolStats = { created: 0, reused: 0, dropped: 0 };
  /** The revision each instance was built at (`revisionOf`): an idle one built before a registration is dropped. */
  const builtAt = new WeakMap<McpServer, number>();
  /** Whether `create` was declared reusable: if it stops being so (a hook or task tool added), nothing is pooled. */
  const declared = isReusable(create);
  const fresh = (): McpServer => {
    stats.created++;
    const instance = create();
    builtAt.set(instance, revisionOf(create));
    return instance;
  };
  /** An idle instance of the current revision, if any (older ones are dropped). */
  const takeIdle = (): McpServer | undefined => {
    const revision = revisionOf(create);
    for (let instance = idle.pop(); instance !== undefined; instance = idle.pop()) {
      if (builtAt.get(instance) === revision) return instance;
      stats.dropped++;
    }
    return undefined;
  };

  /** Lends `instance` to the exchange of `request`; it comes back when that exchange has closed cleanly. */
  const lend = (instance: McpServer, request: Request): McpServer => {
    const server: Server = instance.server;
    const onExchangeClosed = (): void => {
      if (server.onclose === onExchangeClosed) server.onclose = undefined;
      if (request.signal.aborted || server.transport !== undefined || idle.length >= maxIdle) stats.dropped++;
      else idle.push(instance);
    };
    server.onclose = onExchangeClosed;
    return instance;
  };

  const factory = (ctx: McpRequestContext): McpServer => {
    const request = ctx.requestInfo;
    if (ctx.era !== 'modern' || request === undefined || (declared && !isReusable(create))) return fresh();
    const instance = takeIdle();
    if (instance === undefined) return lend(fresh(), request);
    stats.reused++;
    return lend(instance, request);
  };
  return Object.assign(factory, { stats });
}

/** The modern leg's factory: `factory` pooled when its server declared its instances reusable, else as it is. */
export function modernFactoryOf(factory: McpServerFactory): McpServerFactory {
  return isReusable(factory) ? pooledFactory(factory) : factory;
}
