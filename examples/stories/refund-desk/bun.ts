/**
 * The refund desk on Bun: the runtime-neutral fetch handler under `Bun.serve`, both eras on one URL
 * (Bun keeps legacy sessions in this one process, so 2025-11-25 pushes work).
 *
 *   npx bun examples/stories/refund-desk/bun.ts     # PORT=0 picks a free port; keys from MCP_REQUEST_STATE_KEYS
 */
import { createDualEraHandler } from 'mcp-resolve';

import { createRefundDesk } from './desk.js';

/** The part of Bun's global this file uses (the project type-checks without Bun's own types). */
declare const Bun: {
  serve(options: { hostname: string; port: number; fetch(request: Request): Promise<Response> }): { port: number };
};

const handler = createDualEraHandler(createRefundDesk());
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  fetch: (request) => handler.fetch(request),
});
console.error(`refund-desk listening on http://127.0.0.1:${server.port}/mcp`);
