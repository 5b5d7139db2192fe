/**
 * Through the Redis fleet: three desk processes (`--redis`, one key set, `--otel file:…`) behind a
 * round-robin fetch. One call's rounds, served by different instances, are one exported trace; on
 * 2025-11-25 every call is one SERVER span whatever instance relays the push answers.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runRefundDesk } from '../../examples/stories/refund-desk/client.js';
import type { StoryInstance } from '../../scripts/lib/fleetSetup.js';
import { startStoryInstance } from '../../scripts/lib/fleetSetup.js';
import type { RedisServer } from '../../scripts/lib/processes.js';
import { freePort, startRedisServer, stopChild } from '../../scripts/lib/processes.js';
import { callTracesOf, readSpanLines } from '../../scripts/lib/traces.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-resolve-otel-fleet-'));
const spans = join(dir, 'spans.jsonl');
let redis: RedisServer | undefined;
const children: ChildProcess[] = [];
let instances: StoryInstance[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  const env: NodeJS.ProcessEnv = { ...process.env, MCP_REQUEST_STATE_KEYS: randomBytes(32).toString('hex') };
  delete env.REDIS_URL;
  const url = redis.url;
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  const track = (child: ChildProcess) => (children.push(child), child);
  instances = await Promise.all(
    ports.map((port, index) => startStoryInstance(`otel-${index}`, port, url, env, track, ['--otel', `file:${spans}`])),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(children.map((child) => stopChild(child)));
  await redis?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** A round-robin over the instances, no affinity. */
function balancer(): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  let next = 0;
  return (input, init) => {
    const request = new Request(input, init);
    const target = instances[next++ % instances.length];
    const url = new URL(request.url);
    url.port = String(target?.port ?? 0);
    return fetch(new Request(url, request));
  };
}

describe('the desk through the Redis fleet', () => {
  it('exports each call as one trace, a call’s rounds on different instances', async () => {
    const url = new URL(`http://127.0.0.1:${instances[0]?.port ?? 0}/mcp`);
    const modern = await runRefundDesk({ transport: 'http', era: 'modern', url, fetch: balancer(), log: () => {} });
    expect(modern.failed).toBe(0);
    const modernTraces = callTracesOf(readSpanLines(spans));
    expect(modernTraces.map((rounds) => rounds.length)).toEqual([1, 3, 3, 2, 2, 1]);
    const spread = modernTraces.filter(
      (rounds) => new Set(rounds.map((span) => span.attributes['mcp_resolve.instance'])).size >= 2,
    );
    expect(spread.length).toBeGreaterThan(0);
    for (const rounds of modernTraces)
      rounds.forEach((span, index) => expect(span.parentSpanId).toBe(rounds[index - 1]?.spanId));

    const legacy = await runRefundDesk({ transport: 'http', era: 'legacy', url, fetch: balancer(), log: () => {} });
    expect(legacy.failed).toBe(0);
    const all = callTracesOf(readSpanLines(spans));
    const legacyTraces = all.slice(modernTraces.length);
    expect(legacyTraces.map((rounds) => rounds.length)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(legacyTraces.every(([span]) => span?.attributes['mcp.protocol.version'] === '2025-11-25')).toBe(true);
  }, 120_000);
});
