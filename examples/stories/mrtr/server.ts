/**
 * The mrtr story's server (2026-07-28 `input_required` rounds; see deploy.ts).
 *
 *   npx tsx examples/stories/mrtr/server.ts                  # stdio
 *   npx tsx examples/stories/mrtr/server.ts --http --port N  # http://127.0.0.1:N/mcp
 */
import { parseArgs } from 'node:util';

import { serveHttp, serveStdio } from 'mcp-resolve/node';

import { createDeployServer } from './deploy.js';

const { values } = parseArgs({
  options: { http: { type: 'boolean', default: false }, port: { type: 'string', default: '0' } },
});

const server = createDeployServer();
if (values.http) {
  const handle = await serveHttp(server, { port: Number(values.port) });
  // The client waits for this line (on stderr: stdout stays free for the stdio protocol).
  console.error(`mrtr listening on ${handle.url.href}`);
  const stop = () => void handle.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  serveStdio(server);
}
