/**
 * The refund desk over HTTP: both protocol eras on one URL, `http://127.0.0.1:<port>/mcp`.
 * `server.ts --http --port N` runs the same.
 *
 *   PORT=3000 npx tsx examples/stories/refund-desk/http.ts
 */
import { fileURLToPath } from 'node:url';

import type { McpResolveServer } from 'mcp-resolve';
import type { ServeHttpOptions } from 'mcp-resolve/node';
import { serveHttp } from 'mcp-resolve/node';

import { createRefundDesk } from './desk.js';

/**
 * Serves `desk` on `port` until SIGINT or SIGTERM, then closes it and runs `onClose`. Prints
 * `refund-desk listening on <url><suffix>` on stderr (the clients wait for it; stdout stays free).
 */
export async function serveDeskOnHttp(
  desk: McpResolveServer,
  port: number,
  options: { readonly http?: ServeHttpOptions; readonly suffix?: string; readonly onClose?: () => Promise<void> } = {},
): Promise<void> {
  const handle = await serveHttp(desk, { ...options.http, port });
  console.error(`refund-desk listening on ${handle.url.href}${options.suffix ?? ''}`);
  const stop = () => void handle.close().then(async () => (await options.onClose?.(), process.exit(0)));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await serveDeskOnHttp(createRefundDesk(), Number(process.env.PORT ?? 0));
}
