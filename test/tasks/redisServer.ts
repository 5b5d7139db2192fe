/** A real redis-server for one test file of the Tasks suite, and connections to it closed with it. */
import { afterAll, beforeAll } from 'vitest';

import type { RedisConnection } from 'mcp-resolve/redis';
import { connectRedis } from 'mcp-resolve/redis';

import type { RedisServer } from '../../scripts/lib/processes.js';
import { startRedisServer } from '../../scripts/lib/processes.js';

/** Starts redis-server before the file's tests and stops it (and every connection) after them. */
export function useRedisServer(): { connect(): Promise<RedisConnection> } {
  let redis: RedisServer | undefined;
  const clients: RedisConnection[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    for (const client of clients.splice(0)) await client.destroy();
    await redis?.dispose();
  });
  return {
    async connect() {
      if (redis === undefined) throw new Error('useRedisServer(): connect() is for tests, after beforeAll started it');
      const client = await connectRedis(redis.url);
      clients.push(client);
      return client;
    },
  };
}
