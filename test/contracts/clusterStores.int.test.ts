/**
 * The store contracts (storeContracts.ts) against a real Redis Cluster of three primaries with a
 * replica each: the replay guard, tasks and shared sessions keep their contracts when their keys
 * are spread over the cluster's slots by the stores' hash tags.
 */
import {
  claimReplayEpoch,
  createRedisReplayStore,
  createRedisSessionFleet,
  createRedisTaskStore,
} from 'mcp-resolve/redis';

import { useRedisCluster } from '../fixtures/redisCluster.js';
import { replayStoreContract, sessionFleetContract, taskStoreContract } from './storeContracts.js';

const cluster = useRedisCluster();
let stores = 0;
/** A key prefix of its own for each store a test makes (so a hash tag, a slot, of its own). */
const prefix = () => `cluster-contract:${++stores}:`;

replayStoreContract('Redis Cluster', async () => {
  const connection = await cluster.connect();
  const keyPrefix = prefix();
  await claimReplayEpoch(connection, keyPrefix);
  // A replica starved of CPU may take seconds to acknowledge: the contract is about what is stored.
  return createRedisReplayStore(connection, { keyPrefix, replicaAcks: 1, replicaAckTimeoutMs: 20_000 });
});

taskStoreContract('Redis Cluster', async () => createRedisTaskStore(await cluster.connect(), { keyPrefix: prefix() }));

sessionFleetContract('Redis Cluster', async () => {
  const keyPrefix = prefix();
  const [first, second] = [await cluster.connect(), await cluster.connect()];
  return {
    a: createRedisSessionFleet(first, { instanceId: 'a', keyPrefix }),
    b: createRedisSessionFleet(second, { instanceId: 'b', keyPrefix }),
  };
});
