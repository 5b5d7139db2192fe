/**
 * The raw-SDK refund desk over HTTP, hosted exactly like the story server (both eras on one URL).
 *
 *   npx tsx bench/servers/raw-desk.ts --port N   # prints `raw-desk listening on URL` on stderr
 */
import { parseArgs } from 'node:util';

import { serveHttp } from '../../src/node/index.js';
import { createRawDesk } from '../fixtures/rawDesk.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
const handle = await serveHttp(createRawDesk(), { port: Number(values.port) });
console.error(`raw-desk listening on ${handle.url.href}`);
const stop = () => void handle.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
