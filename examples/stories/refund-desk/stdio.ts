/**
 * The refund desk over stdio: the client spawns this process and speaks MCP on its stdin and
 * stdout (both protocol eras). `server.ts` (no flags) runs the same.
 *
 *   npx tsx examples/stories/refund-desk/stdio.ts
 */
import { fileURLToPath } from 'node:url';

import type { McpResolveServer } from 'mcp-resolve';
import { serveStdio } from 'mcp-resolve/node';

import { createRefundDesk } from './desk.js';

/** Serves `desk` on this process's stdio; `onEnd` runs when the client closes stdin. */
export function serveDeskOnStdio(desk: McpResolveServer, onEnd?: () => void): void {
  serveStdio(desk);
  if (onEnd) process.stdin.once('end', onEnd);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serveDeskOnStdio(createRefundDesk());
