/**
 * Serving on Bun: the runtime-neutral fetch handler as the module's default export, which Bun
 * serves when it runs the file. One process keeps 2025-11-25 sessions in memory, so both eras work
 * on one URL.
 *
 *   PORT=3000 bun examples/serve-bun.ts    # http://127.0.0.1:3000/mcp
 *
 * (`npm run runtimes` runs the refund desk on a real Bun; this file's test runs the same handler
 * on Node.)
 */
import { createDualEraHandler } from 'mcp-resolve';

import { createHotel } from './tool.js';

// Sealing keys: MCP_REQUEST_STATE_KEYS when set, else one random key per process.
const handler = createDualEraHandler(createHotel());

export default {
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  fetch: (request: Request): Promise<Response> => handler.fetch(request),
};
