/**
 * What HTTP hosting reuses of a `McpResolveServer`, handed to it as a value
 * (`McpResolveServer.instanceReuse`): whether the server's instances may serve one request after
 * another, and every registration as one event.
 *
 * An instance may serve request after request while it holds nothing of a request beyond the
 * request itself: no task host (whose work outlives the request) and no raw `setup` hooks (which may
 * keep state on an instance). HTTP hosting then serves the modern requests its lane takes on one
 * long-lived instance; every other request gets a fresh instance, as the SDK's hosting gives it.
 * An instance is built from the server as it was then, so a registration made while the server is
 * served is an event the hosting handles in one place (its modern leg).
 */

import type { McpServer } from '@modelcontextprotocol/server';

import { MODERN_REVISION } from '../protocol.js';
import { primeModernInstance } from '../sdkSeams/modernInstance.js';

/** See the module comment. */
export interface InstanceReuse {
  /**
   * Builds an instance of the server as it is now (`McpResolveServer.createServer`), ready to serve
   * modern (2026-07-28) requests one after another on a transport the hosting connects it to.
   */
  readonly create: () => Promise<McpServer>;
  /** Whether an instance built now may serve one request after another (the server has no task tool and no `setup` hook). */
  readonly allowed: boolean;
  /** Calls `changed` after each registration (tool, prompt, resource, `setup` hook) until the returned function is called. */
  watch(changed: () => void): () => void;
}

/**
 * The {@link InstanceReuse} of `create`, allowed while `allowed()` holds, and the `changed` its server
 * calls after each registration. Its instances are made modern as the SDK's hosting makes them (an SDK
 * seam: `sdkSeams/modernInstance.ts`), so the hosting only connects them.
 */
export function instanceReuse(
  create: () => McpServer,
  allowed: () => boolean,
): {
  readonly reuse: InstanceReuse;
  readonly changed: () => void;
} {
  const watchers = new Set<() => void>();
  const reuse: InstanceReuse = {
    create: () => primeModernInstance(create(), MODERN_REVISION),
    get allowed() {
      return allowed();
    },
    watch(changed) {
      const watcher = (): void => changed();
      watchers.add(watcher);
      return () => void watchers.delete(watcher);
    },
  };
  return { reuse, changed: () => watchers.forEach((watcher) => watcher()) };
}
