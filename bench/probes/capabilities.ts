/**
 * Memory of legacy sessions whose clients declare large capabilities, measured: run with
 * `node --expose-gc --import tsx bench/probes/capabilities.ts`. Sends 20 `initialize` requests
 * with 3.5 MB of declared capabilities (refused by the default `maxClientCapabilitiesHeldBytes`), then
 * opens 200 sessions at the default limits in four shapes: one long string in the capabilities,
 * 16 KiB of capabilities made of small objects (the most heap per JSON byte), and 64 KiB of kept
 * params (either capabilities plus a long client info). Each reading follows two forced collections.
 */
import { heldBytes } from '../../src/state/heldBytes.js';
import { createDualEraHandler } from '../../src/hosting/index.js';
import { McpResolveServer } from '../../src/index.js';
import type { Target } from '../../scripts/lib/wire.js';
import { post } from '../../scripts/lib/wire.js';

const server = new McpResolveServer({ name: 'probe', version: '1.0.0' });
const handler = createDualEraHandler(server.createServer, { maxLegacySessionsPerClient: 10_000 });
const into: Target = {
  url: new URL('http://localhost/mcp'),
  headers: { host: 'localhost' },
  fetch: (request) => handler.fetch(request),
};

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/** Sends `count` initialize requests and counts the statuses. */
async function flood(count: number, capabilities: () => object, clientInfo: () => object) {
  const statuses: Record<number, number> = {};
  for (let index = 0; index < count; index++) {
    const response = await post(into, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: capabilities(), clientInfo: clientInfo() },
    });
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    await response.body?.cancel();
  }
  return statuses;
}

const small = { name: 'probe', version: '1' };
const padded = (bytes: number) => ({ experimental: { pad: { text: 'x'.repeat(bytes) } } });
/** Capabilities of at most `bytes` held bytes made of empty objects under short keys: `{"k0":{},"k1":{},…}`. */
const objects = (bytes: number) => {
  const pad: Record<string, object> = {};
  for (let index = 0; heldBytes({ experimental: { pad } }) < bytes - 200; index++) pad[`k${index}`] = {};
  return { experimental: { pad } };
};

const results: Record<string, unknown> = {};
// Warm-up (lazily built schemas, compiled code): one refused and one accepted initialize.
await flood(
  1,
  () => padded(3_500_000),
  () => small,
);
await flood(
  1,
  () => ({}),
  () => small,
);
let before = heap();
results['3.5 MB capabilities x20 (default limits)'] = {
  statuses: await flood(
    20,
    () => padded(3_500_000),
    () => small,
  ),
  heapDeltaBytes: heap() - before,
};
for (const [name, capabilities, clientInfo] of [
  ['16 KiB capabilities, one string', () => padded(15_900), () => small],
  ['16 KiB capabilities, small objects', () => objects(16_384), () => small],
  [
    '64 KiB kept params (16 KiB capabilities + 48 KiB client info)',
    () => padded(15_900),
    () => ({ name: 'n'.repeat(48_500), version: '1' }),
  ],
  [
    '64 KiB kept params (16 KiB capabilities of small objects + 48 KiB client info)',
    () => objects(16_384),
    () => ({ name: 'n'.repeat(48_500), version: '1' }),
  ],
] as const) {
  before = heap();
  const statuses = await flood(200, capabilities, clientInfo);
  const sessions = statuses[200] ?? 0;
  results[name] = { statuses, bytesPerSession: Math.round((heap() - before) / Math.max(sessions, 1)) };
}
console.log(JSON.stringify(results, null, 2));
await handler.close();
