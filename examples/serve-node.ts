/**
 * Serving on Node: `serveHttp` listens on one URL (`/mcp`) for both protocol eras — 2026-07-28
 * requests and 2025-11-25 sessions — with safe limits and Host checks by default. For stdio, see
 * tool.ts (`serveStdio`).
 *
 *   PORT=3000 npx tsx examples/serve-node.ts    # then point a client at http://127.0.0.1:3000/mcp
 */
import { serveHttp } from 'mcp-resolve/node';

import { createHotel } from './tool.js';

// Keys that seal the state between rounds: MCP_REQUEST_STATE_KEYS when set (give every instance the
// same), else one random key for this process (fine for one process; a restart drops calls in flight).
const handle = await serveHttp(createHotel(), { port: Number(process.env.PORT ?? 3000) });
console.error(`hotel listening on ${handle.url.href}`); // stderr: stdout stays free

// Close sessions and connections before exiting.
process.once('SIGTERM', () => void handle.close().then(() => process.exit(0)));
process.once('SIGINT', () => void handle.close().then(() => process.exit(0)));
