/**
 * The refund desk server.
 *
 *   npx tsx examples/stories/refund-desk/server.ts                  # stdio, both eras
 *   npx tsx examples/stories/refund-desk/server.ts --http --port N  # http://127.0.0.1:N/mcp, both eras
 */
import { parseArgs } from 'node:util';

import { createRefundDesk } from './desk.js';

const { values } = parseArgs({
  options: { http: { type: 'boolean', default: false }, port: { type: 'string', default: '0' } },
});

const desk = createRefundDesk();
if (values.http) {
  const port = Number(values.port);
  const handle = await desk.serveHttp({ port });
  // The client waits for this line (on stderr: stdout stays free for the stdio protocol).
  console.error(`refund-desk listening on ${handle.url.href}`);
  const stop = () => void handle.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  desk.serveStdio();
}
