/**
 * Memory of legacy sessions, measured: run with `node --expose-gc --import tsx bench/probes/sessions.ts`.
 * Opens N initialize-only sessions on one dual-era handler (no sockets), reads the heap, then
 * parks one pushed call per session (a question waiting for its answer) and reads it again; each
 * reading follows two forced collections. Prints bytes per session and per parked call.
 */
import { z } from 'zod';

import { createDualEraHandler } from '../../src/hosting/index.js';
import { elicit, McpResolveServer, resolver } from '../../src/index.js';
import type { Target } from '../../scripts/lib/wire.js';
import { openLegacySession, post } from '../../scripts/lib/wire.js';

const COUNT = Number(process.argv[2] ?? 1000);
const name = resolver({ name: 'name' }, () => elicit('Name?', z.object({ name: z.string() })));
const server = new McpResolveServer({ name: 'probe', version: '1.0.0' }).tool(
  'greet',
  { resolve: { name } },
  ({ name }) => name.name,
);
const handler = createDualEraHandler(server.createServer, {
  maxLegacySessions: COUNT + 1,
  maxLegacySessionsPerClient: COUNT + 1,
});

/** Raw requests straight into the handler, as a client on localhost sends them. */
const into = (sessionId?: string): Target => ({
  url: new URL('http://localhost/mcp'),
  headers: { host: 'localhost' },
  fetch: (request) => handler.fetch(request),
  ...(sessionId !== undefined && { sessionId }),
});

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const before = heap();
const sessions: string[] = [];
for (let index = 0; index < COUNT; index++) sessions.push(await openLegacySession(into()));
const afterSessions = heap();
const parked: Array<ReadableStreamDefaultReader<Uint8Array>> = [];
for (const id of sessions) {
  const call = await post(into(id), {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'greet', arguments: {} },
  });
  const reader = call.body!.getReader();
  await reader.read(); // the push has been sent: the call is parked waiting for its answer
  parked.push(reader);
}
const afterParked = heap();
console.log(
  JSON.stringify({
    sessions: COUNT,
    bytesPerSession: Math.round((afterSessions - before) / COUNT),
    bytesPerParkedCall: Math.round((afterParked - afterSessions) / COUNT),
  }),
);
await handler.close();
process.exit(0);
