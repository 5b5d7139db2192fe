/**
 * The expense desk server.
 *
 *   npx tsx examples/stories/expense-approval/server.ts                  # stdio, both eras
 *   npx tsx examples/stories/expense-approval/server.ts --http --port N  # http://127.0.0.1:N/mcp, both eras
 */
import { parseArgs } from 'node:util';

import { serveHttp, serveStdio } from 'mcp-resolve/node';

import { createExpenseDesk } from './desk.js';

const { values } = parseArgs({
  options: { http: { type: 'boolean', default: false }, port: { type: 'string', default: '0' } },
});

const desk = createExpenseDesk();
if (values.http) {
  const handle = await serveHttp(desk, { port: Number(values.port) });
  // The client waits for this line (on stderr: stdout stays free for the stdio protocol).
  console.error(`expense-desk listening on ${handle.url.href}`);
  const stop = () => void handle.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  serveStdio(desk);
}
