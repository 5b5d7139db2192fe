/**
 * `npm run fleet`: the refund desk as a fleet, on loopback only.
 *
 * 1. Starts a real redis-server (throwaway dir, no persistence), three story instances
 *    (`server.ts --http --redis URL --instance desk-N`, one MCP_REQUEST_STATE_KEYS) and a real
 *    nginx doing plain round-robin with no session affinity.
 * 2. Runs the story client through nginx on both eras, and shows which instance served each leg
 *    of a call (the `Mcp-Resolve-Instance` response header).
 * 3. Runs 100 2025-11-25 clients at once through nginx, each from its own loopback address
 *    (127.0.1.N) and each completing a refund on its own session (nginx sets X-Real-IP, which the
 *    desk reads as the client's address); then one address opens 40 sessions through nginx,
 *    forging X-Real-IP and X-Forwarded-For: 32 are admitted (maxLegacySessionsPerClient).
 * 4. On each era, kills the instance serving a call mid-flow, shows what the client sees, and
 *    shows that new calls complete.
 * 5. Replays the final round of a finished call to every instance (refused), restarts every
 *    instance with the same keys, and replays again (still refused).
 * 6. Every instance exports its OpenTelemetry spans (`--otel file:…`); the run checks that one
 *    2026-07-28 refund's rounds, served by different instances, form one trace, and with
 *    `--trace-out PATH` writes that trace's spans as JSON (`scripts/waterfall.ts` draws it).
 * 7. On a Redis Cluster (three primaries with a replica each): every instance restarted with
 *    `--cluster`, the story client on both eras, the final round replayed everywhere (refused);
 *    the primary holding the replay guard's slot killed and its replica promoted by the cluster;
 *    calls complete again unaided and the final round is still refused.
 *
 * Prints `fleet: N passed, M failed`, exits non-zero when M > 0, and tears everything down on
 * every exit path (including Ctrl-C). Missing binaries: a message with the install command.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';

import { runRefundDesk } from '../examples/stories/refund-desk/client.js';
import { INSTANCE_HEADER } from '../src/contracts/index.js';
import type { TestConnection } from '../src/testing/index.js';
import { connectHttp } from '../src/testing/index.js';
import type { StoryInstance } from './lib/fleetSetup.js';
import { startNginx, startStoryInstance } from './lib/fleetSetup.js';
import { postedJson } from './lib/wire.js';
import type { RedisServer } from './lib/processes.js';
import { INSTALL_HINT, findBinary, freePort, startRedisServer, stopChild } from './lib/processes.js';
import type { RedisCluster } from './lib/cluster.js';
import { startRedisCluster } from './lib/cluster.js';
import { callSpansOf, mostSpreadTrace, readSpanLines } from './lib/traces.js';
import { fetchFrom, openLegacySession } from './lib/wire.js';

const INSTANCES = 3;
/** Legacy clients that run a refund at once, each from its own loopback address (127.0.1.N). */
const LEGACY_CLIENTS = 100;
const { values: options } = parseArgs({ options: { 'trace-out': { type: 'string' } } });

let passed = 0;
let failed = 0;
const check = (ok: boolean, what: string): void => {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
};

// ---------------------------------------------------------------------------------------------
// Processes, and their teardown on every exit path
// ---------------------------------------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'mcp-resolve-fleet-'));
/** Where every instance appends its spans (JSON lines). */
const spansPath = join(dir, 'spans.jsonl');
const children = new Set<ChildProcess>();
let redis: RedisServer | undefined;
let cluster: RedisCluster | undefined;
let tornDown = false;

async function teardown(): Promise<void> {
  if (tornDown) return;
  tornDown = true;
  await Promise.all([...children].map((child) => stopChild(child)));
  await redis?.dispose();
  await cluster?.dispose();
  rmSync(dir, { recursive: true, force: true });
}
process.on('exit', () => {
  // Last resort when something exits without the async teardown: nothing may outlive the script.
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  redis?.stop(true).catch(() => undefined);
  for (const node of cluster?.nodes ?? []) void node.stop(true).catch(() => undefined);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\nfleet: ${signal}, tearing down`);
    void teardown().finally(() => process.exit(130));
  });
}

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

type Instance = StoryInstance;

const startInstance = (id: string, port: number, env: NodeJS.ProcessEnv): Promise<Instance> =>
  startStoryInstance(id, port, redis!.url, env, track, ['--otel', `file:${spansPath}`]);

// ---------------------------------------------------------------------------------------------
// What the client sent and which instance answered
// ---------------------------------------------------------------------------------------------

interface Leg {
  readonly kind: 'call' | 'round' | 'answer' | 'other';
  readonly label: string;
  readonly instance: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

const legs: Leg[] = [];
let lastCallInstance = '';

function classify(body: unknown): { kind: Leg['kind']; label: string } {
  const message = body as {
    method?: string;
    params?: { arguments?: { order_id?: string; reason?: string }; requestState?: unknown };
    result?: unknown;
  };
  if (message?.method === 'tools/call') {
    const args = message.params?.arguments;
    const label = `${args?.order_id ?? '?'} "${args?.reason ?? '?'}"`;
    return { kind: typeof message.params?.requestState === 'string' ? 'round' : 'call', label };
  }
  if (message?.result !== undefined) return { kind: 'answer', label: 'answer' };
  return { kind: 'other', label: message?.method ?? 'other' };
}

/** A fetch that records each POST and the instance that answered it. */
async function recordingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const body = await postedJson(request);
  const response = await fetch(request);
  const instance = response.headers.get(INSTANCE_HEADER) ?? '?';
  if (body !== undefined) {
    const { kind, label } = classify(body);
    if (kind === 'call') lastCallInstance = instance;
    legs.push({ kind, label, instance, headers: Object.fromEntries(request.headers), body });
  }
  return response;
}

/** The legs of each call: a `call` leg and the rounds or answers that follow it. */
function callsOf(recorded: readonly Leg[]): Leg[][] {
  const calls: Leg[][] = [];
  for (const leg of recorded) {
    if (leg.kind === 'call') calls.push([leg]);
    else if (leg.kind !== 'other') calls.at(-1)?.push(leg);
  }
  return calls;
}

function describeCall(call: readonly Leg[]): string {
  return `${call[0]!.label}: ${call.map((leg) => `${leg.kind}@${leg.instance}`).join(' → ')}`;
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

async function replayEverywhere(instances: readonly Instance[], final: Leg, when: string): Promise<void> {
  for (const instance of instances) {
    const response = await fetch(`http://127.0.0.1:${instance.port}/mcp`, {
      method: 'POST',
      headers: { ...final.headers, host: `127.0.0.1:${instance.port}` },
      body: JSON.stringify(final.body),
    });
    const text = await response.text();
    const json = text.startsWith('{')
      ? text
      : (text
          .split('\n')
          .find((line) => line.startsWith('data:'))
          ?.slice(5) ?? '{}');
    const error = (JSON.parse(json) as { error?: { code?: number; message?: string } }).error;
    check(
      error?.code === -32602 && error.message === 'Invalid or expired requestState',
      `${when}: the replayed final round is refused by ${instance.id} (${String(error?.code)} ${String(error?.message)})`,
    );
  }
}

/** A call during which the instance serving it is killed; returns what the client saw. */
async function killDuringCall(
  era: 'modern' | 'legacy',
  url: URL,
  instances: Instance[],
): Promise<{ seen: string; killed: Instance | undefined; connection: TestConnection }> {
  let killed: Instance | undefined;
  let killedAt = 0;
  const elicit = async (params: ElicitRequest['params']): Promise<ElicitResult> => {
    if (killed === undefined) {
      // Modern: the instance that served this round; legacy: the one holding the call's stream.
      const victim = era === 'modern' ? legs.at(-1)?.instance : lastCallInstance;
      killed = instances.find((instance) => instance.id === victim);
      if (killed !== undefined && killed.child.exitCode === null) {
        const exited = once(killed.child, 'exit');
        killed.child.kill('SIGKILL');
        killedAt = Date.now();
        await exited;
      }
      console.log(`    asked: ${params.message}`);
      console.log(`    killed ${killed?.id ?? '?'} (SIGKILL) before answering`);
    }
    return answerDesk(params);
  };
  const connection = await connectHttp(url, { era, elicit, transportOptions: { fetch: recordingFetch } });
  // The SDK client reports a response stream that breaks (transport error) but keeps the call
  // waiting for its timeout; an application ends the call at once on that report, as here.
  const streamLost = new AbortController();
  connection.client.onerror = (error) => {
    if (killed !== undefined && error.message.startsWith('SSE stream disconnected')) {
      console.log(`    the client's transport reported, ${Date.now() - killedAt} ms after the kill: ${error.message}`);
      streamLost.abort(error);
    }
  };
  const started = Date.now();
  let seen: string;
  try {
    const result = await connection.client.callTool(
      { name: 'refund_order', arguments: { order_id: 'ORD-7002', reason: 'instance dies' } },
      { timeout: 20_000, signal: streamLost.signal },
    );
    const receipt = result.structuredContent as { refunded_cents?: number } | undefined;
    seen = `the call completed: refunded_cents ${String(receipt?.refunded_cents)}`;
  } catch (error) {
    seen = `the call ended with an error after ${Date.now() - started} ms: ${error instanceof Error ? error.message : String(error)}`;
  }
  // The call may end (stream closed) before the kernel has finished the process off: wait, so the
  // next request does not reach a half-dead instance (that request would get nginx's 502).
  if (killed !== undefined && killed.child.exitCode === null && killed.child.signalCode === null) {
    await once(killed.child, 'exit');
  }
  return { seen, killed, connection };
}

/** The desk's two questions about ORD-7002, answered: the whole order, and back to stock. */
function answerDesk(params: ElicitRequest['params']): ElicitResult {
  return params.message.includes('stock')
    ? { action: 'accept', content: { restock: true } }
    : { action: 'accept', content: { full: true } };
}

/** Legacy clients behind nginx, each from its own loopback address, all at once: how many refunds completed. */
async function legacyClientsAtOnce(url: URL, count: number): Promise<{ completed: number; failures: string[] }> {
  const failures: string[] = [];
  const outcomes = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const address = `127.0.1.${index + 1}`;
      let connection: TestConnection | undefined;
      try {
        connection = await connectHttp(url, {
          era: 'legacy',
          elicit: async (params) => answerDesk(params),
          transportOptions: { fetch: fetchFrom(address) },
        });
        const result = await connection.client.callTool(
          { name: 'refund_order', arguments: { order_id: 'ORD-7002', reason: `client ${address}` } },
          { timeout: 60_000 },
        );
        const receipt = result.structuredContent as { refunded_cents?: number } | undefined;
        if (receipt?.refunded_cents === 4800) return true;
        failures.push(`${address}: ${JSON.stringify(result.structuredContent ?? result.content)}`);
      } catch (error) {
        failures.push(`${address}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await connection?.close().catch(() => undefined);
      }
      return false;
    }),
  );
  return { completed: outcomes.filter(Boolean).length, failures };
}

/** The statuses of `count` legacy `initialize` requests from one address through nginx, each forging its forwarding headers. */
async function sessionsFromOneAddress(url: URL, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index++) {
    const forged = { 'x-real-ip': `198.51.100.${index}`, 'x-forwarded-for': `203.0.113.${index}` };
    const opened = await openLegacySession({ url, headers: forged, fetch: fetchFrom('127.0.2.1') }).then(
      () => 200,
      (error: unknown) => Number(/^initialize answered (\d+)/.exec(String((error as Error).message))?.[1] ?? 0),
    );
    statuses.push(opened);
  }
  return statuses;
}

/** One refund's rounds, served by different instances, are one trace in what the instances exported. */
function checkOneTrace(): void {
  const trace = mostSpreadTrace(readSpanLines(spansPath));
  const rounds = callSpansOf(trace ?? []);
  const instances = new Set(rounds.map((span) => span.attributes['mcp_resolve.instance']));
  for (const round of rounds)
    console.log(
      `  trace ${round.traceId.slice(0, 8)}… round ${String(round.attributes['mcp_resolve.round'])} on ${String(round.attributes['mcp_resolve.instance'])}: ${String(round.attributes['mcp_resolve.round.outcome'])}`,
    );
  check(
    rounds.length === 3 && instances.size >= 2,
    `2026-07-28: one exported trace holds a refund's 3 rounds, served by ${instances.size} instances`,
  );
  const out = options['trace-out'];
  if (out !== undefined && trace !== undefined) {
    writeFileSync(out, `${JSON.stringify(trace, null, 1)}\n`);
    console.log(`  wrote that trace's ${trace.length} spans to ${out}`);
  }
}

async function main(): Promise<void> {
  const missing = ['redis-server', 'redis-cli', 'nginx'].filter((name) => findBinary(name) === undefined);
  if (missing.length > 0) {
    console.error(`fleet: ${missing.join(' and ')} not found. Install with:\n  ${INSTALL_HINT}`);
    process.exitCode = 1;
    return;
  }
  const nginxBinary = findBinary('nginx')!;

  console.log('=== setup ===');
  redis = await startRedisServer();
  console.log(`  redis-server on ${redis.url} (no persistence, ${dir})`);
  const env: NodeJS.ProcessEnv = { ...process.env, MCP_REQUEST_STATE_KEYS: randomBytes(32).toString('hex') };
  delete env.REDIS_URL;
  const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
  let instances = await Promise.all(ports.map((port, index) => startInstance(`desk-${index}`, port, env)));
  console.log(`  instances: ${instances.map((instance) => `${instance.id} on :${instance.port}`).join(', ')}`);
  const nginxPort = await freePort();
  await startNginx(nginxBinary, join(dir, 'nginx'), nginxPort, ports, track);
  const url = new URL(`http://127.0.0.1:${nginxPort}/mcp`);
  console.log(`  nginx round-robin (no affinity) on ${url.href}`);

  let final: Leg | undefined;
  for (const era of ['modern', 'legacy'] as const) {
    const name = era === 'modern' ? '2026-07-28' : '2025-11-25';
    console.log(`\n=== the story client through nginx, ${name} ===`);
    legs.length = 0;
    const report = await runRefundDesk({
      transport: 'http',
      era,
      url,
      fetch: recordingFetch,
      log: (line) => console.log(`  ${line}`),
    });
    passed += report.passed;
    failed += report.failed;
    const calls = callsOf(legs);
    for (const call of calls) console.log(`  legs of ${describeCall(call)}`);
    const spread = calls.filter((call) => new Set(call.map((leg) => leg.instance)).size >= 2);
    check(
      spread.length > 0,
      `${name}: ${spread.length} call(s) had legs${era === 'legacy' ? ' and answers' : ''} served by 2 or more instances`,
    );
    if (era === 'modern') {
      checkOneTrace();
      final = calls.find((call) => call.length === 3 && call.at(-1)?.kind === 'round')?.at(-1);
      check(final !== undefined, `${name}: captured the final round of a three-leg call for the replay checks`);
    }
  }

  console.log(`\n=== ${LEGACY_CLIENTS} 2025-11-25 clients at once through nginx, each from its own address ===`);
  const started = Date.now();
  const { completed, failures } = await legacyClientsAtOnce(url, LEGACY_CLIENTS);
  for (const failure of failures.slice(0, 5)) console.log(`    ${failure}`);
  check(
    completed === LEGACY_CLIENTS,
    `2025-11-25: ${completed} of ${LEGACY_CLIENTS} clients completed a refund on sessions of their own, ${failures.length} failed (${Date.now() - started} ms)`,
  );
  const statuses = await sessionsFromOneAddress(url, 40);
  const admitted = statuses.filter((status) => status === 200).length;
  const limited = statuses.filter((status) => status === 429).length;
  check(
    admitted === 32 && limited === 8,
    `2025-11-25: one address opening 40 sessions through nginx, forging X-Real-IP and X-Forwarded-For: ${admitted} admitted, ${limited} refused with 429 (maxLegacySessionsPerClient 32)`,
  );

  for (const era of ['modern', 'legacy'] as const) {
    const name = era === 'modern' ? '2026-07-28' : '2025-11-25';
    console.log(`\n=== an instance dies mid-call, ${name} ===`);
    legs.length = 0;
    const { seen, killed, connection } = await killDuringCall(era, url, instances);
    console.log(`    the client saw: ${seen}`);
    check(killed !== undefined, `${name}: killed ${killed?.id ?? 'no instance'} while it served the call`);
    if (era === 'modern')
      check(
        seen.startsWith('the call completed: refunded_cents 4800'),
        `${name}: the next round went to a live instance and the call completed`,
      );
    else
      check(
        seen.startsWith('the call ended with an error'),
        `${name}: the call's response stream closed and the call ended at once with an error, not a hang`,
      );
    // New calls on the same connection (for 2025-11-25: the same session) complete on the survivors.
    const after = await connection.client
      .callTool(
        { name: 'refund_order', arguments: { order_id: 'ORD-7001', reason: 'after the crash' } },
        { timeout: 20_000 },
      )
      .catch((error: unknown) => ({ structuredContent: { error: String(error) } }));
    check(
      (after.structuredContent as { refunded_cents?: number } | undefined)?.refunded_cents === 1500,
      `${name}: a new call on the same ${era === 'legacy' ? 'session' : 'client'} completes after the crash (${JSON.stringify(after.structuredContent)})`,
    );
    await connection.close();
    if (killed !== undefined) {
      const index = instances.indexOf(killed);
      instances[index] = await startInstance(killed.id, killed.port, env);
      console.log(`    restarted ${killed.id}`);
    }
  }

  if (final !== undefined) {
    console.log('\n=== replaying a finished call’s final round (2026-07-28) ===');
    await replayEverywhere(instances, final, 'before restart');
    await Promise.all(instances.map((instance) => stopChild(instance.child)));
    instances = await Promise.all(instances.map((instance) => startInstance(instance.id, instance.port, env)));
    console.log(`  restarted every instance with the same keys`);
    await replayEverywhere(instances, final, 'after restart');
  }
  await onCluster(instances, url, env);
}

/** The story client on both eras through nginx; the final round of its first three-leg modern call. */
async function storyOnBothEras(url: URL, where: string): Promise<Leg | undefined> {
  let final: Leg | undefined;
  for (const era of ['modern', 'legacy'] as const) {
    legs.length = 0;
    const report = await runRefundDesk({ transport: 'http', era, url, fetch: recordingFetch, log: () => {} });
    passed += report.passed;
    failed += report.failed;
    const calls = callsOf(legs);
    const spread = calls.filter((call) => new Set(call.map((leg) => leg.instance)).size >= 2);
    check(
      report.failed === 0 && spread.length > 0,
      `${where}, ${era === 'modern' ? '2026-07-28' : '2025-11-25'}: the story client passed (${report.passed} checks), ${spread.length} call(s) served by 2 or more instances`,
    );
    if (era === 'modern') final = calls.find((call) => call.length === 3 && call.at(-1)?.kind === 'round')?.at(-1);
  }
  return final;
}

/** The fleet again on a Redis Cluster, through a failover of the replay guard's primary. */
async function onCluster(instances: Instance[], url: URL, env: NodeJS.ProcessEnv): Promise<void> {
  console.log('\n=== on a Redis Cluster (3 primaries, 3 replicas) ===');
  cluster = await startRedisCluster(2_000);
  const nodes = cluster.addresses.join(',');
  await Promise.all(instances.map((instance) => stopChild(instance.child)));
  const started = await Promise.all(
    instances.map((instance) =>
      startStoryInstance(instance.id, instance.port, ['--cluster', nodes], env, track, ['--otel', `file:${spansPath}`]),
    ),
  );
  console.log(`  cluster ${nodes}; restarted every instance with --cluster`);
  const final = await storyOnBothEras(url, 'cluster');
  if (final !== undefined) await replayEverywhere(started, final, 'cluster, before the failover');
  const key = '{mcp-resolve:replay:}epoch';
  const primary = await cluster.primaryFor(key);
  await primary.stop(true);
  const killedAt = Date.now();
  let promoted = primary;
  while (promoted === primary && Date.now() - killedAt < 20_000) {
    await new Promise((wake) => setTimeout(wake, 200));
    promoted = await cluster.primaryFor(key).catch(() => primary);
  }
  check(
    promoted !== primary,
    `cluster: killed the replay guard's primary :${primary.port}; its replica :${promoted.port} was promoted after ${Date.now() - killedAt} ms`,
  );
  // Restarted as a supervisor would: it rejoins empty as the new primary's replica. Until then that
  // primary has no replica to acknowledge a round (replicaAcks 1), so its rounds fail closed.
  await primary.restart();
  let recovered = false;
  let seen = '';
  while (!recovered && Date.now() - killedAt < 30_000) {
    const connection = await connectHttp(url, { era: 'modern', elicit: async (params) => answerDesk(params) }).catch(
      () => undefined,
    );
    const result = await connection?.client
      .callTool(
        { name: 'refund_order', arguments: { order_id: 'ORD-7002', reason: 'after the failover' } },
        { timeout: 10_000 },
      )
      .catch((error: unknown) => ({ structuredContent: { error: String(error) } }));
    await connection?.close().catch(() => undefined);
    recovered = (result?.structuredContent as { refunded_cents?: number } | undefined)?.refunded_cents === 4800;
    seen = JSON.stringify(result?.structuredContent ?? 'no connection').slice(0, 200);
    if (!recovered) await new Promise((wake) => setTimeout(wake, 250));
  }
  check(
    recovered,
    `cluster: calls complete again unaided, ${Date.now() - killedAt} ms after the kill${recovered ? '' : ` (last: ${seen})`}`,
  );
  if (final !== undefined) await replayEverywhere(started, final, 'cluster, after the failover');
  instances.splice(0, instances.length, ...started);
}

try {
  await main();
} catch (error) {
  failed += 1;
  console.error(`fleet: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await teardown();
}
console.log(`\nfleet: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || process.exitCode === 1 ? 1 : 0;
