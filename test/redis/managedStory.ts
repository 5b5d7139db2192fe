/**
 * The managed-Redis story, shared by one server, Sentinel and Cluster: a fleet connected over TLS
 * as the guide's ACL user passes a sealed round once and refuses its replay, keeps the store
 * contracts, and serves answer pages, all under the keys and channels the guide's ACL line grants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RedisFleet } from 'mcp-resolve/redis';
import {
  claimReplayEpoch,
  createRedisAnswerPageBackend,
  createRedisReplayStore,
  createRedisSessionFleet,
  createRedisTaskStore,
} from 'mcp-resolve/redis';

import { createSealer } from '../../src/state/sealer.js';
import { replayStoreContract, sessionFleetContract, taskStoreContract } from '../contracts/storeContracts.js';
import { BINDING, FROZEN, KEY_A, bytes, captureLog, protocolRejection, wireOf } from '../state/helpers.js';

/** How the story's own replay stores check: the fleet's `replicaAcks`, and a command deadline. */
export interface StoryStores {
  readonly replicaAcks: number;
  readonly commandTimeoutMs?: number;
}

/** Runs the story on the fleet `connect` opens (once for the file, closed after it). */
export function managedStory(name: string, connect: () => Promise<RedisFleet>, stores: StoryStores): void {
  let fleet: RedisFleet | undefined;
  const warnings: string[] = [];
  beforeAll(async () => {
    fleet = await connect();
  });
  afterAll(async () => {
    await fleet?.close();
  });
  const connected = (): RedisFleet => {
    if (fleet === undefined) throw new Error('managedStory(): the fleet did not connect');
    return fleet;
  };
  let made = 0;
  // Every key and channel under mcp-resolve:, as the guide's ACL line grants.
  const prefix = () => `mcp-resolve:managed:${++made}:`;

  describe(`managed Redis, ${name}: TLS and the guide's ACL user`, () => {
    it('passes a sealed round once and refuses its replay on every instance', async () => {
      const log = captureLog();
      const sealer = createSealer('refund-desk', {
        keys: [KEY_A],
        replayStore: connected().replayStore,
        sink: log.sink,
      });
      const token = await sealer.seal(bytes('final round'), BINDING);
      expect(await sealer.open(token, BINDING)).toEqual(bytes('final round'));
      expect(wireOf(await protocolRejection(sealer.open(token, BINDING)))).toEqual(FROZEN);
      expect(log.lines).toEqual(['requestState rejected on tools/call: replayed']);
    });

    it('opens, answers and takes an answer page once', async () => {
      const pages = await createRedisAnswerPageBackend(connected().redis, {
        keyPrefix: prefix(),
        onerror: (error) => void warnings.push(error.message),
      });
      const page = { pageId: 'page-000000000000000001', record: '{}', bindingKey: 'b-1', client: 'alice' };
      expect(await pages.open({ ...page, expiresAt: Date.now() + 60_000 })).toBe('opened');
      expect(await pages.answer(page.pageId, '"yes"', Date.now() + 60_000)).toBe('stored');
      expect(await pages.take(page.bindingKey)).toBe('"yes"');
      expect(warnings).toEqual([]);
    });
  });

  replayStoreContract(`managed Redis, ${name}`, async () => {
    const keyPrefix = prefix();
    await claimReplayEpoch(connected().redis, keyPrefix);
    // A replica starved of CPU may take seconds to acknowledge: the contract is about what is stored.
    return createRedisReplayStore(connected().redis, { keyPrefix, replicaAckTimeoutMs: 20_000, ...stores });
  });
  taskStoreContract(`managed Redis, ${name}`, async () =>
    createRedisTaskStore(connected().redis, { keyPrefix: prefix() }),
  );
  sessionFleetContract(`managed Redis, ${name}`, async () => {
    const keyPrefix = prefix();
    return {
      a: createRedisSessionFleet(connected().redis, { instanceId: 'a', keyPrefix }),
      b: createRedisSessionFleet(connected().redis, { instanceId: 'b', keyPrefix }),
    };
  });
}
