/**
 * The refund desk over HTTP, hosted one of three ways, for the hosting comparison (bench section 10):
 *
 *   npx tsx bench/servers/hosted-desk.ts --hosting resolve --port N   # the story's desk on mcp-resolve's serveHttp (both eras)
 *   npx tsx bench/servers/hosted-desk.ts --hosting sdk --port N       # the same desk on the SDK's createMcpHandler + toNodeHandler
 *   npx tsx bench/servers/hosted-desk.ts --hosting sdk-raw --port N   # the hand-written desk (bench/fixtures/rawDesk.ts) on the SDK's hosting
 *
 * `--upstream` applies, at run time, an SDK change that is waiting on upstream (bench/servers/upstream.ts).
 *
 * Prints `<hosting> desk listening on URL` on stderr. SIGTERM exits through `process.exit`, so a
 * `--cpu-prof` run writes its profile.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { serveHttp } from 'mcp-resolve/node';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { createRawDesk } from '../fixtures/rawDesk.js';

const { values } = parseArgs({
  options: {
    hosting: { type: 'string', default: 'resolve' },
    port: { type: 'string', default: '0' },
    upstream: { type: 'boolean', default: false },
  },
});
if (values.upstream) await import('./upstream.js');
const desk = createRefundDesk({ onerror: () => {} });

/** Starts the chosen hosting; resolves to its URL and a close function. */
async function host(): Promise<{ url: URL; close(): Promise<void> }> {
  if (values.hosting === 'resolve') return serveHttp(desk, { port: Number(values.port) });
  if (values.hosting !== 'sdk' && values.hosting !== 'sdk-raw')
    throw new Error(`--hosting must be resolve, sdk or sdk-raw (got ${values.hosting})`);
  const factory = values.hosting === 'sdk' ? desk.createServer : createRawDesk();
  const handler = createMcpHandler(factory);
  const nodeHandler = toNodeHandler(handler);
  const server = createServer((req, res) => void nodeHandler(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(Number(values.port), '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const handle = await host();
console.error(`${values.hosting} desk listening on ${handle.url.href}`);
const stop = () => void handle.close().finally(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
