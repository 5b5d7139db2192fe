/**
 * createDurableObjectReplayStore over the in-process namespace model: the store contract suite,
 * ids spread over the shards (the same id always to the same object), and a failing object
 * failing the check closed with an exact message.
 */
import { describe, expect, it } from 'vitest';

import type { ReplayGuardNamespace } from 'mcp-resolve/workers';
import { createDurableObjectReplayStore } from 'mcp-resolve/workers';

import { replayStoreContract } from '../contracts/storeContracts.js';
import { modelNamespace } from './durableObjectHarness.js';

replayStoreContract('Durable Object (in-process model)', async () => createDurableObjectReplayStore(modelNamespace()));

const LATER = Date.now() + 600_000;

describe('createDurableObjectReplayStore', () => {
  it('spreads ids over 16 objects by default, each id always to the same one', async () => {
    const namespace = modelNamespace();
    const store = createDurableObjectReplayStore(namespace);
    for (let index = 0; index < 400; index += 1) expect(await store.consume(`id-${index}`, LATER)).toBe(true);
    expect([...namespace.objects.keys()].sort()).toEqual(
      Array.from({ length: 16 }, (_, shard) => `mcp-resolve:replay:${shard}`).sort(),
    );
    for (let index = 0; index < 400; index += 1) expect(await store.consume(`id-${index}`, LATER)).toBe(false);
  });

  it('names its objects with namePrefix and uses as many as shards says', async () => {
    const namespace = modelNamespace();
    const store = createDurableObjectReplayStore(namespace, { shards: 2, namePrefix: 'desk:' });
    for (let index = 0; index < 50; index += 1) await store.consume(`id-${index}`, LATER);
    expect([...namespace.objects.keys()].sort()).toEqual(['desk:0', 'desk:1']);
  });

  it('refuses a shard count that is not an integer from 1 to 1,024', () => {
    for (const shards of [0, 1.5, 1_025, Number.NaN]) {
      expect(() => createDurableObjectReplayStore(modelNamespace(), { shards })).toThrow(
        `createDurableObjectReplayStore(): options.shards must be an integer from 1 to 1024 (got ${String(shards)}).`,
      );
    }
  });

  it('rejects, and reports to onerror, when the object fails or answers something else', async () => {
    const failing = (fetch: () => Promise<Response>): ReplayGuardNamespace<string> => ({
      idFromName: (name) => name,
      get: () => ({ fetch }),
    });
    const cases: [ReplayGuardNamespace<string>, string][] = [
      [failing(() => Promise.reject(new Error('Durable Object is overloaded'))), 'Durable Object is overloaded'],
      [failing(async () => new Response('boom', { status: 500 })), 'the object answered HTTP 500 boom'],
      [failing(async () => Response.json({ first: 'yes' })), 'the object answered HTTP 200 {"first":"yes"}'],
    ];
    for (const [namespace, reason] of cases) {
      const seen: Error[] = [];
      const store = createDurableObjectReplayStore(namespace, { shards: 1, onerror: (error) => seen.push(error) });
      const message = `Replay check failed: the Durable Object mcp-resolve:replay:0 did not answer (${reason}). The round is refused (its token may already count as used); start the call again.`;
      await expect(store.consume('a', LATER)).rejects.toThrow(message);
      expect(seen.map((error) => error.message)).toEqual([message]);
    }
  });
});
