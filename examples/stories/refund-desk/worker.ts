/**
 * The refund desk as a Cloudflare Worker module (run locally by workerd in `npm run runtimes`).
 * Modern clients (2026-07-28) are served per request; legacy clients (2025-11-25) get the SDK's
 * clean modern-only refusal, because an isolate cannot hold their session between requests
 * (serving them needs a Durable Object; see docs/guides/deploy.md). Sealing keys come from a secret.
 */
import type { DualEraHandler } from 'mcp-resolve';
import { createDualEraHandler } from 'mcp-resolve';

import { createRefundDesk } from './desk.js';

/** The Worker's bindings: the sealing keys secret (comma-separated hex or base64, like the env variable). */
interface Env {
  readonly MCP_REQUEST_STATE_KEYS: string;
}

let handler: DualEraHandler | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    // Built on the first request: a Worker's secrets (and its random numbers) exist only inside a request.
    handler ??= createDualEraHandler(
      createRefundDesk({ requestState: { keys: env.MCP_REQUEST_STATE_KEYS.split(',') } }),
      { legacy: 'reject' },
    );
    return handler.fetch(request);
  },
};
