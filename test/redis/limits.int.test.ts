/**
 * Legacy session limits in a Redis fleet are the fleet's: two instances on one redis-server share
 * one count, one byte budget and one per-client count, and a flood of large sessions cannot grow
 * Redis past the budget.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { DualEraHandler, DualEraHttpOptions } from '../../src/hosting/index.js';
import { createDualEraHandler } from '../../src/hosting/index.js';
import type { RedisConnection, RedisFleet } from '../../src/redis/index.js';
import { connectRedis, connectRedisFleet } from '../../src/redis/index.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';
import type { RedisServer } from '../../scripts/lib/processes.js';
import { startRedisServer } from '../../scripts/lib/processes.js';
import type { Target } from '../../scripts/lib/wire.js';
import { post } from '../../scripts/lib/wire.js';

let redis: RedisServer;
let probe: RedisConnection;
let prefixes = 0;
const running: Array<{ handler: DualEraHandler; fleet: RedisFleet }> = [];

beforeAll(async () => {
  redis = await startRedisServer();
  probe = await connectRedis(redis.url);
});
afterEach(async () => {
  for (const { handler, fleet } of running.splice(0)) {
    await handler.close();
    await fleet.close();
  }
});
afterAll(async () => {
  await probe?.destroy();
  await redis?.dispose();
});

/** Two instances sharing Redis under a fresh key prefix. */
async function twoInstances(options: DualEraHttpOptions): Promise<DualEraHandler[]> {
  const keyPrefix = `limits:${++prefixes}:`;
  const handlers: DualEraHandler[] = [];
  for (const instanceId of ['a', 'b']) {
    const fleet = await connectRedisFleet({ url: redis.url, instanceId, keyPrefix });
    const handler = createDualEraHandler(askNameServer, { ...options, sessionFleet: fleet.sessions });
    running.push({ handler, fleet });
    handlers.push(handler);
  }
  return handlers;
}

const into = (handler: DualEraHandler, client: string): Target => ({
  url: new URL('http://localhost/mcp'),
  headers: { host: 'localhost', 'x-client': client },
  fetch: (request) => handler.fetch(request),
});

function initialize(padBytes: number) {
  return {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { experimental: { pad: { text: 'x'.repeat(padBytes) } } },
      clientInfo: { name: 'flood', version: '1' },
    },
  };
}

async function usedMemory(): Promise<number> {
  const info = await probe.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1]);
}

describe('legacy session limits in a Redis fleet', () => {
  it('accepts 1 MB sessions from a flood only up to legacySessionBudgetHeldBytes, and Redis grows by about that much', async () => {
    const budget = 8_000_000;
    const instances = await twoInstances({
      maxClientCapabilitiesHeldBytes: 1_100_000,
      maxLegacySessionHeldBytes: 1_200_000,
      legacySessionBudgetHeldBytes: budget,
      maxLegacySessions: 20,
      maxLegacySessionsPerClient: 1_000,
    });
    const before = await usedMemory();
    const statuses: number[] = [];
    for (let index = 0; index < 60; index++) {
      const response = await post(into(instances[index % 2]!, 'flood'), initialize(1_000_000));
      statuses.push(response.status);
      await response.body?.cancel();
    }
    const grown = (await usedMemory()) - before;
    // Each session keeps ~1,000,100 bytes: 7 fit in 8,000,000.
    expect(statuses.filter((status) => status === 200)).toHaveLength(7);
    expect(statuses.filter((status) => status === 503)).toHaveLength(53);
    // Redis holds the 7 records (jemalloc rounds each 1 MB string up) and nothing of the 53 refused.
    expect(grown).toBeLessThan(budget * 1.5);
  });

  it('shares maxLegacySessions and maxLegacySessionsPerClient between instances', async () => {
    const [a, b] = await twoInstances({
      maxLegacySessions: 3,
      maxLegacySessionsPerClient: 2,
      clientAddress: (request) => request.headers.get('x-client'),
    });
    const status = async (handler: DualEraHandler, client: string) => {
      const response = await post(into(handler, client), initialize(10));
      await response.body?.cancel();
      return response.status;
    };
    expect(await status(a!, '192.0.2.1')).toBe(200);
    expect(await status(b!, '192.0.2.1')).toBe(200);
    expect(await status(a!, '192.0.2.1')).toBe(429);
    expect(await status(b!, '192.0.2.2')).toBe(200);
    expect(await status(a!, '192.0.2.3')).toBe(503);
  });
});
