/**
 * Serving on Deno: the runtime-neutral fetch handler as the module's default export, which
 * `deno serve` listens with. One process keeps 2025-11-25 sessions in memory, so both eras work on
 * one URL.
 *
 *   deno serve --allow-net --allow-env --port 3000 examples/serve-deno.ts   # http://127.0.0.1:3000/mcp
 *
 * (`npm run runtimes` runs the refund desk this way on a real Deno; this file's test runs the same
 * handler on Node.)
 */
import { createDualEraHandler } from 'mcp-resolve';

import { createHotel } from './tool.js';

// Sealing keys: MCP_REQUEST_STATE_KEYS when set (needs --allow-env), else one random key per process.
const handler = createDualEraHandler(createHotel());

export default {
  fetch: (request: Request): Promise<Response> => handler.fetch(request),
};
