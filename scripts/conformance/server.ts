/**
 * The fixture server of the official MCP conformance suite, written with mcp-resolve's public API.
 *
 *   npx tsx scripts/conformance/server.ts [--port N]   # http://127.0.0.1:N/mcp, both eras
 *   npm run conformance                                 # runs the suite against it
 *
 * One URL serves 2026-07-28 (stateless, `input_required` rounds) and 2025-11-25 (sessions, pushed
 * questions). Every fixture that asks the client anything is a resolver-based tool or prompt:
 *
 * - `mrtr.ts`        the `input-required-result-*` fixtures (SEP-2322) and the asking prompt
 * - `diagnostics.ts` the tools `server-stateless` (SEP-2575) probes
 * - `pushes.ts`      the 2025-11-25 sampling and elicitation fixtures (SEP-1034, SEP-1330)
 * - `plain.ts`       content, progress, logging, prompts, resources, completion, subscriptions
 * - `schemas.ts`     a SEP-2243 header-mirrored argument, and a JSON Schema 2020-12 input (SDK registry)
 * - `tasks.ts`       the `tasks-*` fixtures (SEP-2663): tools declared with `task`
 *
 * See contributing/conformance.md for what each scenario checks and which library feature it exercises.
 */
import { parseArgs } from 'node:util';

import { McpResolveServer } from 'mcp-resolve';
import { serveHttp } from 'mcp-resolve/node';

import type { ListChanges } from './diagnostics.js';
import { registerDiagnosticFixtures } from './diagnostics.js';
import { registerMrtrFixtures } from './mrtr.js';
import { registerPlainFixtures } from './plain.js';
import { registerPushFixtures } from './pushes.js';
import { registerSchemaFixtures } from './schemas.js';
import { registerTaskFixtures } from './tasks.js';

/** Builds the conformance fixture server (one definition; hosting makes an instance per request or session). */
export function createConformanceServer(changes: ListChanges): McpResolveServer {
  const server = new McpResolveServer({ name: 'mcp-resolve-conformance', version: '1.0.0' });
  registerPlainFixtures(server);
  registerPushFixtures(server);
  registerMrtrFixtures(server);
  registerDiagnosticFixtures(server, changes);
  registerSchemaFixtures(server);
  registerTaskFixtures(server);
  return server;
}

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
// The trigger fixtures publish through the HTTP handle, which exists only once the server listens.
const published: { notify?: ListChanges } = {};
const changes: ListChanges = {
  toolsChanged: () => published.notify?.toolsChanged(),
  promptsChanged: () => published.notify?.promptsChanged(),
};
const handle = await serveHttp(createConformanceServer(changes), { port: Number(values.port) });
published.notify = handle.notify;
// scripts/conformance.ts polls the URL itself; this line is for people starting the server by hand.
console.error(`conformance fixture server listening on ${handle.url.href}`);
const stop = () => void handle.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
