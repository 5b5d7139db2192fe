/**
 * The store contracts (storeContracts.ts) against every backend: in memory, and Redis (a real
 * redis-server). A new backend adds one line per contract here.
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
import { replayStoreContract, sessionFleetContract, taskStoreContract } from './storeContracts.js';

const redis = useRedisServer();
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
