/**
 * Serving on Cloudflare Workers: the runtime-neutral fetch handler as a Worker module. Each request
 * is served on its own, so 2026-07-28 clients work as is; 2025-11-25 clients (which need a session
 * held between requests) get the SDK's clean modern-only refusal (`legacy: 'reject'`); serving them
 * takes a Durable Object (docs/deploy.md).
 *
 *   npx wrangler dev examples/serve-workers.ts   # with a secret MCP_REQUEST_STATE_KEYS (64 hex chars, or several, comma-separated)
 */
import type { DualEraHandler } from 'mcp-resolve';
import { createDualEraHandler } from 'mcp-resolve';

import { createHotel } from './tool.js';

/** The Worker's bindings: the sealing keys, as a secret. */
export interface Env {
  readonly MCP_REQUEST_STATE_KEYS: string;
}

let handler: DualEraHandler | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    // Built on the first request: a Worker's secrets exist only inside a request. Every isolate
    // must seal with the same keys, since any of them may serve the next round of a call.
    handler ??= createDualEraHandler(createHotel({ requestState: { keys: env.MCP_REQUEST_STATE_KEYS.split(',') } }), {
      legacy: 'reject',
    });
    return handler.fetch(request);
  },
};
