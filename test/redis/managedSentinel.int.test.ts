/**
 * Managed Redis behind Sentinel: a primary, two replicas and three sentinels, all speaking only
 * TLS (replication and the sentinels' links too) and logging users in by their ACLs (the guide's
 * lines, with different passwords on the data nodes and the sentinels). The fleet connects with
 * `tls`, the primary's `username`/`password` and the sentinels' login in the target; a wrong
 * sentinel login is refused naming the target's username and password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { McpResolveError } from 'mcp-resolve';
import { connectRedis, connectRedisFleet } from 'mcp-resolve/redis';

import type { SentinelGroup } from '../../scripts/lib/sentinel.js';
import { startSentinelGroup } from '../../scripts/lib/sentinel.js';
import { SENTINEL_USER, libraryOptions, useRedisAccess } from '../fixtures/redisAccess.js';
import { managedStory } from './managedStory.js';

const access = useRedisAccess({ authClients: 'yes' });
/**
 * The command deadline of the story: a replay check on a Sentinel connection leases node-redis's
 * one primary client and took about 90 ms here, with or without TLS, so twenty at once (the
 * contract's race) queue past the default 2 s.
 */
const SLOW_LEASES_MS = 20_000;
let group: SentinelGroup | undefined;
beforeAll(async () => {
  group = await startSentinelGroup('managed', undefined, access());
});
afterAll(async () => {
  await group?.dispose();
});
const started = (): SentinelGroup => {
  if (group === undefined) throw new Error('the Sentinel group did not start');
  return group;
};

managedStory(
  'Sentinel',
  async () =>
    connectRedisFleet({
      sentinel: { sentinels: started().addresses, masterName: started().masterName, ...SENTINEL_USER },
      ...libraryOptions(access()),
      commandTimeoutMs: SLOW_LEASES_MS,
    }),
  { replicaAcks: 1, commandTimeoutMs: SLOW_LEASES_MS },
);

describe('managed Redis, Sentinel: connecting', () => {
  it("names the Sentinel target's username and password when a sentinel refuses the login", async () => {
    const target = { sentinels: started().addresses, masterName: started().masterName };
    const error = await connectRedis(
      { ...target, username: SENTINEL_USER.username, password: 'nope-2718' },
      { ...libraryOptions(access()), connectTimeoutMs: 2_000 },
    ).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(McpResolveError);
    expect((error as Error).message).toMatch(
      /a sentinel refused the user and password \(WRONGPASS\): set username and password in the Sentinel target to the sentinels' ACL user\.$/,
    );
    expect((error as Error).message).not.toContain('nope-2718');
  });
});
