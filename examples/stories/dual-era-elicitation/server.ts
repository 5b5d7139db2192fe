/**
 * The booking desk server with its payment page.
 *
 *   npx tsx examples/stories/dual-era-elicitation/server.ts                  # stdio, both eras
 *   npx tsx examples/stories/dual-era-elicitation/server.ts --http --port N  # http://127.0.0.1:N/mcp
 */
import { parseArgs } from 'node:util';

import { serveHttp, serveStdio } from 'mcp-resolve/node';

import { createBookingDesk, startPaymentPage } from './desk.js';

const { values } = parseArgs({
  options: { http: { type: 'boolean', default: false }, port: { type: 'string', default: '0' } },
});

const page = await startPaymentPage();
const desk = createBookingDesk(page);
console.error(`booking-desk payment page on ${page.url.href}`);
if (values.http) {
  const handle = await serveHttp(desk, { port: Number(values.port) });
  console.error(`booking-desk listening on ${handle.url.href}`);
  const stop = () => void Promise.all([handle.close(), page.close()]).then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  const handle = serveStdio(desk);
  process.stdin.once('end', () => void Promise.all([handle.close(), page.close()]));
}
