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
  const fresh = (): McpServer => {
    stats.created++;
    return create();
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
    if (ctx.era !== 'modern' || request === undefined) return fresh();
    const instance = idle.pop();
    if (instance === undefined) return lend(fresh(), request);
    stats.reused++;
    return lend(instance, request);
  };
  return Object.assign(factory, { stats });
}
