/**
 * Which server factories build instances that may serve one request after another: a
 * `McpResolveServer`'s, while its instances hold nothing of a request beyond the request itself
 * (no task host, whose work outlives the request, and no raw `setup` hooks, which may keep state on
 * an instance). HTTP hosting serves modern requests on such instances (the lane's one instance, the
 * pool's idle ones) instead of building one per request; any other factory gets a fresh instance
 * per request, as the SDK's hosting does.
 *
 * An instance is built from the server as it was then: a tool, prompt, resource or hook registered
 * later is not on it. So each declaration carries a revision that changes with every registration,
 * and hosting builds new instances once it has moved on.
 */
import type { McpServer } from '@modelcontextprotocol/server';

/** How a factory's instances may be reused. */
export interface Reuse {
  /** Whether instances may serve one request after another (asked again as registrations change). */
  allowed(): boolean;
  /** Changes whenever what an instance is built from changes (a registration). */
  revision(): number;
}

const declared = new WeakMap<object, Reuse>();

/** Declares that `factory`'s instances may be reused as `reuse` says. */
export function declareReusable(factory: () => McpServer, reuse: Reuse): void {
  declared.set(factory, reuse);
}

/** Whether `factory` was declared reusable and still is. */
export function isReusable(factory: unknown): factory is () => McpServer {
  return typeof factory === 'function' && declared.get(factory)?.allowed() === true;
}

/** The revision of what `factory` builds its instances from (`0` when it declared none). */
export function revisionOf(factory: () => McpServer): number {
  return declared.get(factory)?.revision() ?? 0;
}
