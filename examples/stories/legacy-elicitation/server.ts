/**
 * The legacy-elicitation story's server (see accounts.ts).
 *
 *   npx tsx examples/stories/legacy-elicitation/server.ts                  # stdio
 *   npx tsx examples/stories/legacy-elicitation/server.ts --http --port N  # http://127.0.0.1:N/mcp
 */
import { parseArgs } from 'node:util';

import { serveHttp, serveStdio } from 'mcp-resolve/node';

import { createAccountsServer } from './accounts.js';

const { values } = parseArgs({
  options: { http: { type: 'boolean', default: false }, port: { type: 'string', default: '0' } },
});

const server = createAccountsServer();
if (values.http) {
  const handle = await serveHttp(server, { port: Number(values.port) });
  // The client waits for this line (on stderr: stdout stays free for the stdio protocol).
  console.error(`legacy-elicitation listening on ${handle.url.href}`);
  const stop = () => void handle.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  serveStdio(server);
}
