/**
 * The store contracts (storeContracts.ts) against every backend: in memory, Redis (a real
 * redis-server) and, for the replay guard, Durable Objects (a real workerd). A new backend adds one
 * line per contract here.
 */
import { createMemoryReplayStore } from 'mcp-resolve/contracts';
import { createMemorySessionHub } from 'mcp-resolve/contracts';
import { createMemoryTaskStore } from 'mcp-resolve/contracts';
import {
  claimReplayEpoch,
  createRedisReplayStore,
  createRedisSessionFleet,
  createRedisTaskStore,
} from 'mcp-resolve/redis';

import { useRedisServer } from '../fixtures/redisServer.js';
import { useWorkerdReplayGuard } from '../fixtures/workerdReplayGuard.js';
import { replayStoreContract, sessionFleetContract, taskStoreContract } from './storeContracts.js';

const redis = useRedisServer();
const workerd = useWorkerdReplayGuard();
let fleets = 0;
/** A key prefix of its own for each store a test makes, so tests never see each other's keys. */
const prefix = () => `contract:${++fleets}:`;

replayStoreContract('memory', async () => createMemoryReplayStore());
replayStoreContract('Redis', async () => {
  const connection = await redis.connect();
  const keyPrefix = prefix();
  await claimReplayEpoch(connection, keyPrefix);
  return createRedisReplayStore(connection, { keyPrefix });
});
replayStoreContract('Durable Object (workerd)', async () => workerd.store());

taskStoreContract('memory', async () => createMemoryTaskStore());
taskStoreContract('Redis', async () => createRedisTaskStore(await redis.connect(), { keyPrefix: prefix() }));

sessionFleetContract('memory', async () => {
  const hub = createMemorySessionHub();
  return { a: hub.member('a'), b: hub.member('b') };
});
sessionFleetContract('Redis', async () => {
  const keyPrefix = prefix();
  const [first, second] = [await redis.connect(), await redis.connect()];
  return {
    a: createRedisSessionFleet(first, { instanceId: 'a', keyPrefix }),
    b: createRedisSessionFleet(second, { instanceId: 'b', keyPrefix }),
  };
});
