/**
 * 7. Fleet (Redis): the cost per round of the Redis replay store against the in-memory one, and
 * of a legacy push answered through another instance (relayed over Redis pub/sub) against one
 * answered where the call runs. Both sides run in this process against a real redis-server on
 * loopback, measured side by side in alternating batches. Then fleet throughput through a real
 * nginx (plain round-robin): three story instances against one, in alternating periods.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { z } from 'zod';

import { createDualEraHandler } from '../../src/hosting/index.js';
import type { DualEraHandler } from '../../src/hosting/index.js';
import type { RedisFleet } from '../../src/redis/index.js';
import { connectRedisFleet } from '../../src/redis/index.js';
import { elicit, McpResolveServer, resolver } from '../../src/index.js';
import { createMemoryReplayStore } from '../../src/contracts/index.js';
import { startNginx, startStoryInstance } from '../../scripts/lib/fleetSetup.js';
import type { RedisServer } from '../../scripts/lib/processes.js';
import { findBinary, freePort, startRedisServer, stopChild } from '../../scripts/lib/processes.js';
import { connectHttp } from '../../src/testing/index.js';
import type { Target } from '../../scripts/lib/wire.js';
import { openLegacySession, post, SseReader } from '../../scripts/lib/wire.js';
import { alternate } from '../lib/alternate.js';
import type { Benchmark, Json } from '../lib/registry.js';
import { fmt, fmtRatio } from '../lib/stats.js';

const URL_ = new URL('http://localhost/mcp');

const name = resolver({ name: 'name' }, () => elicit('Name?', z.object({ name: z.string() })));
const server = new McpResolveServer({ name: 'fleet-bench', version: '1.0.0' }).tool(
  'greet',
  { resolve: { name } },
  ({ name }) => `hello ${name.name}`,
);

/** Raw requests straight into `handler`, as a client on localhost sends them. */
const into = (handler: DualEraHandler, sessionId?: string): Target => ({
  url: URL_,
  headers: { host: 'localhost' },
  fetch: (request) => handler.fetch(request),
  ...(sessionId !== undefined && { sessionId }),
});

/** One legacy call with one push: the call on `runs`, the answer posted to `answers`. */
async function pushedCall(runs: DualEraHandler, answers: DualEraHandler, sessionId: string): Promise<void> {
  const call = await post(into(runs, sessionId), {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'greet', arguments: {} },
  });
  const events = new SseReader(call);
  const push = await events.next();
  await (
    await post(into(answers, sessionId), {
      jsonrpc: '2.0',
      id: push.id,
      result: { action: 'accept', content: { name: 'Ada' } },
    })
  ).text();
  const result = await events.next();
  if (result.result === undefined) throw new Error(`unexpected ${JSON.stringify(result)}`);
}

/** Completed one-leg modern calls per second through `url`, from `clients` looping for `ms`. */
async function callsPerSecond(url: URL, clients: number, ms: number): Promise<number> {
  const connections = await Promise.all(Array.from({ length: clients }, () => connectHttp(url, { era: 'modern' })));
  let calls = 0;
  const started = performance.now();
  const deadline = started + ms;
  await Promise.all(
    connections.map(async ({ client }) => {
      while (performance.now() < deadline) {
        await client.callTool({ name: 'refund_order', arguments: { order_id: 'ORD-7001', reason: 'bench' } });
        calls += 1;
      }
    }),
  );
  const elapsed = performance.now() - started;
  await Promise.all(connections.map((connection) => connection.close()));
  return (calls * 1000) / elapsed;
}

/** Three instances behind nginx against one behind nginx, alternating periods; `undefined` without nginx. */
async function throughput(redis: RedisServer, quick: boolean): Promise<{ three: number[]; one: number[] } | undefined> {
  const binary = findBinary('nginx');
  if (binary === undefined) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'mcp-resolve-bench-fleet-'));
  const children: ChildProcess[] = [];
  const track = (child: ChildProcess) => (children.push(child), child);
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, MCP_REQUEST_STATE_KEYS: randomBytes(32).toString('hex') };
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    await Promise.all(ports.map((port, index) => startStoryInstance(`bench-${index}`, port, redis.url, env, track)));
    const [threePort, onePort] = [await freePort(), await freePort()];
    await startNginx(binary, join(dir, 'three'), threePort, ports, track);
    await startNginx(binary, join(dir, 'one'), onePort, [ports[0]], track);
    const three = new URL(`http://127.0.0.1:${threePort}/mcp`);
    const one = new URL(`http://127.0.0.1:${onePort}/mcp`);
    const period = quick ? 1_000 : 4_000;
    const clients = 8;
    await callsPerSecond(three, clients, 500); // warm-up: JIT and connections on every instance
    await callsPerSecond(one, clients, 500);
    const result = { three: [] as number[], one: [] as number[] };
    for (let pair = 0; pair < (quick ? 1 : 3); pair++) {
      const order = pair % 2 === 0 ? (['three', 'one'] as const) : (['one', 'three'] as const);
      for (const side of order)
        result[side].push(await callsPerSecond(side === 'three' ? three : one, clients, period));
    }
    return result;
  } finally {
    await Promise.all(children.map((child) => stopChild(child)));
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export const fleet: Benchmark = {
  id: 'fleet',
  title: '7. Fleet (Redis)',
  async run(context) {
    const redis = await startRedisServer();
    const fleets: RedisFleet[] = [];
    const handlers: DualEraHandler[] = [];
    try {
      const member = async (instanceId: string) => {
        const joined = await connectRedisFleet({ url: redis.url, instanceId, keyPrefix: 'bench:' });
        fleets.push(joined);
        return joined;
      };
      // The replay store, one consume per sealed round.
      const a = await member('a');
      const memory = createMemoryReplayStore();
      let counter = 0;
      const expires = () => Date.now() + 630_000;
      const replay = await alternate(
        () => a.replayStore.consume(`r${counter++}`, expires()) as Promise<boolean>,
        async () => memory.consume(`m${counter++}`, expires()),
        { warmup: context.pick(500, 100), runs: context.pick(20, 4), batch: context.pick(500, 100) },
      );
      // A legacy call with one push: answered on another instance (relayed) vs where it runs.
      const b = await member('b');
      const shared = [a, b].map((joined) =>
        createDualEraHandler(server.createServer, { sessionFleet: joined.sessions }),
      );
      const single = createDualEraHandler(server.createServer);
      handlers.push(...shared, single);
      const sharedSession = await openLegacySession(into(shared[0]!));
      const singleSession = await openLegacySession(into(single));
      const relay = await alternate(
        () => pushedCall(shared[0]!, shared[1]!, sharedSession),
        () => pushedCall(single, single, singleSession),
        { warmup: context.pick(50, 10), runs: context.pick(12, 4), batch: context.pick(40, 10) },
      );
      const row = (what: string, paired: typeof replay, sides: [string, string]) => [
        what,
        `${fmt(paired.a.wall.median, 1)} µs (${sides[0]})`,
        `${fmt(paired.b.wall.median, 1)} µs (${sides[1]})`,
        fmtRatio(paired.ratio),
      ];
      await Promise.all(handlers.splice(0).map((handler) => handler.close()));
      context.log('  fleet throughput through nginx, 3 instances vs 1 …');
      const rates = await throughput(redis, context.quick);
      const data: Json = {
        replay: { redis: paired(replay.a), memory: paired(replay.b) },
        relay: { relayed: paired(relay.a), local: paired(relay.b) },
        throughput: rates === undefined ? null : { three: rates.three, one: rates.one },
      };
      const throughputRows =
        rates === undefined
          ? [['one-leg modern calls per second through nginx', 'skipped: nginx not installed', '', '']]
          : [
              [
                'one-leg modern calls per second through nginx (8 clients)',
                `${fmt(median(rates.three), 0)}/s (3 instances)`,
                `${fmt(median(rates.one), 0)}/s (1 instance)`,
                `${(median(rates.three) / median(rates.one)).toFixed(2)}×`,
              ],
            ];
      return {
        tables: [
          {
            columns: ['per operation (median wall time)', 'fleet side', 'single-process side', 'ratio'],
            rows: [
              row('replay check of one sealed round', replay, ['Redis SET NX PXAT', 'in-memory']),
              row('legacy call with one push, answer included', relay, ['answer relayed via Redis', 'answer local']),
              ...throughputRows,
            ],
          },
        ],
        notes: [
          'Both sides run in this process, alternating batches; Redis is a real redis-server on loopback (no persistence).',
          'The relayed side adds a Redis PUBLISH on the instance that receives the answer and a session-record refresh per request; the HTTP layer is the handlers’ fetch (no sockets), so the difference is the fleet’s own cost.',
          'On a 2-core machine shared with other jobs, redis-server competes with Node for CPU: treat the figures as upper bounds.',
          'Throughput: three story instances (child processes sharing Redis and keys) behind one nginx, against the first of them alone behind another nginx, in alternating periods with 8 looping clients; the figure is the median of the periods. With 2 cores for nginx, Redis, the clients and every instance, three instances cannot run in parallel: the ratio shows the fleet’s overhead here, not its scaling, which needs separate hosts.',
        ],
        targets: [],
        data,
      };
    } finally {
      await Promise.all(handlers.map((handler) => handler.close()));
      await Promise.all(fleets.map((joined) => joined.close()));
      await redis.dispose();
    }
  },
};

function paired(side: { wall: { median: number }; cpu: { median: number } }): Json {
  return { wallMedianUs: side.wall.median, cpuMedianUs: side.cpu.median };
}
