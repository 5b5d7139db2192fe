/**
 * Serves one option over stdio (what `run.ts` and the stdio tests spawn):
 *
 *   npx tsx examples/mrtr-options/serve.ts <e|a|b|c|d|f|g|h|j|e-naive>              # both eras
 *   npx tsx examples/mrtr-options/serve.ts <option> --legacy-only                  # a pre-MRTR server
 */
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { serveStdio } from 'mcp-resolve/node';

import { isOptionName, NAIVE_E, OPTIONS } from './deck.js';

const [name, flag] = process.argv.slice(2);
const option = name === 'e-naive' ? NAIVE_E : isOptionName(name) ? OPTIONS[name] : undefined;
if (option === undefined) {
  console.error(`usage: serve.ts <${Object.keys(OPTIONS).join('|')}|e-naive> [--legacy-only] (got ${String(name)})`);
  process.exit(2);
}
const server = option.server();
if (flag === '--legacy-only') {
  // A plain connect speaks only the 2025-11-25 era: what an MRTR-only client meets in an old deployment.
  await server.createServer().connect(new StdioServerTransport());
} else {
  serveStdio(server);
}
