/**
 * The refund desk as a Cloudflare Worker module (run locally by workerd in `npm run runtimes`).
 * Modern clients (2026-07-28) are served per request; legacy clients (2025-11-25) get the SDK's
 * clean modern-only refusal, because an isolate cannot hold their session between requests
 * (serving them needs a Durable Object; see docs/guides/deploy.md). Sealing keys come from a secret;
 * each sealed round is single use across every isolate through the replay guard's Durable Objects.
 */
import type { DualEraHandler } from 'mcp-resolve';
import { createDualEraHandler } from 'mcp-resolve';
import type { ReplayGuardNamespace } from 'mcp-resolve/workers';
import { createDurableObjectReplayStore } from 'mcp-resolve/workers';

import { createRefundDesk } from './desk.js';

/** The replay guard's Durable Object class: the namespace `REPLAY_GUARD` is bound to it. */
export { ReplayGuardObject } from 'mcp-resolve/workers';

/** The Worker's bindings: the sealing keys secret (comma-separated hex or base64, like the env variable) and the replay guard's namespace. */
interface Env {
  readonly MCP_REQUEST_STATE_KEYS: string;
  readonly REPLAY_GUARD: ReplayGuardNamespace;
}

let handler: DualEraHandler | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    // Built on the first request: a Worker's secrets (and its random numbers) exist only inside a request.
    handler ??= createDualEraHandler(
      createRefundDesk({
        requestState: {
          keys: env.MCP_REQUEST_STATE_KEYS.split(','),
          replayStore: createDurableObjectReplayStore(env.REPLAY_GUARD),
        },
      }),
      { legacy: 'reject' },
    );
    return handler.fetch(request);
  },
};
