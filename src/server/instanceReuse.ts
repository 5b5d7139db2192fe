/**
 * Which server factories build instances that may serve one request after another: a
 * `McpResolveServer`'s, while its instances hold nothing of a request beyond the request itself
 * (no task host, whose work outlives the request, and no raw `setup` hooks, which may keep state on
 * an instance). HTTP hosting lends such instances to modern requests from a pool instead of building
 * one per request; any other factory gets a fresh instance per request, as the SDK's hosting does.
 */
import type { McpServer } from '@modelcontextprotocol/server';

const reusable = new WeakMap<object, () => boolean>();

/** Declares that `factory`'s instances may be reused while `allowed()` holds (asked when hosting starts). */
export function declareReusable(factory: () => McpServer, allowed: () => boolean): void {
  reusable.set(factory, allowed);
}

/** Whether `factory` was declared reusable and still is. */
export function isReusable(factory: unknown): factory is () => McpServer {
  return typeof factory === 'function' && reusable.get(factory)?.() === true;
}
