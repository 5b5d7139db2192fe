/**
 * `npm run chaos`: the refund-desk fleet under faults, on loopback only.
 *
 * Starts a Redis Sentinel group (a primary, two replicas, three sentinels), three desk instances
 * that find the primary through the sentinels (scripts/lib/chaosDesk.ts: the story's desk plus a
 * task tool), and nginx doing plain round-robin. Two looping clients keep both eras busy while it
 * injects, one at a time: the primary killed (failover), the primary paused past the command
 * deadline, the primary restarted empty, an instance killed during a push and during a task body,
 * and nginx reloaded. Then the same fleet on a Redis Cluster (three primaries with a replica each,
 * scripts/lib/cluster.ts): the primary holding the replay guard's slot killed (its replica promoted
 * by the cluster itself), and an instance killed during a task body. For each fault it reports the calls that failed and how, the longest wait,
 * the time until calls succeed again, the replays accepted, the answers lost, and whether every
 * instance recovered without a restart.
 *
 * Each fault has its own bounds: 0 replays accepted, 0 answers lost, no call over 30 s and calls
 * succeeding again within the watch (30 s after the injection) for every fault; every call in
 * flight when an instance is killed ended within 5 s; calls succeeding again within 2 s of an
 * nginx reload. A fault that fails a check prints each failed or slow call's HTTP exchanges.
 *
 * Bounded: eight faults, each watched for at most 30 s; the whole run takes about three minutes.
 * Prints `chaos: N passed, M failed`, exits non-zero when M > 0, and tears everything down on
 * every exit path (including Ctrl-C).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { ClientCapabilities, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';

import { INSTANCE_HEADER } from '../src/contracts/index.js';
import { TASKS_EXTENSION } from '../src/contracts/index.js';
import type { TestConnection } from '../src/testing/index.js';
import { connectHttp } from '../src/testing/index.js';
import { getTask, taskOf } from '../src/client/index.js';
import { AUDIT_BODY_MS, CHAOS_LEASE_MS } from './lib/chaosSettings.js';
import type { StoryInstance } from './lib/fleetSetup.js';
import { startInstanceProcess, startNginx } from './lib/fleetSetup.js';
import { INSTALL_HINT, findBinary, freePort, stopChild } from './lib/processes.js';
import type { RedisCluster } from './lib/cluster.js';
import { startRedisCluster } from './lib/cluster.js';
import type { SentinelGroup } from './lib/sentinel.js';
import { startSentinelGroup } from './lib/sentinel.js';
import { postedJson } from './lib/wire.js';

const DESK = fileURLToPath(new URL('./lib/chaosDesk.ts', import.meta.url));
const MASTER = 'chaos';
const CALL_LIMIT_MS = 30_000;
const WATCH_MS = 30_000;
/** Every call in flight when an instance is killed ends (completes, or fails with an error) within this, in ms. */
const KILL_NOTICE_MS = 5_000;
/** nginx reloaded: calls succeed again on both eras within this, in ms. */
const RELOAD_RECOVERY_MS = 2_000;
const RUN_LIMIT_MS = 9 * 60_000;
/** The cluster's `cluster-node-timeout`: a primary silent this long is failed over by its replica. */
const CLUSTER_NODE_TIMEOUT_MS = 2_000;

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

const dir = mkdtempSync(join(tmpdir(), 'mcp-resolve-chaos-'));
const children = new Set<ChildProcess>();
let group: SentinelGroup | undefined;
let cluster: RedisCluster | undefined;
let tornDown = false;

async function teardown(): Promise<void> {
  if (tornDown) return;
  tornDown = true;
  await Promise.all([...children].map((child) => stopChild(child)));
  await group?.dispose();
  await cluster?.dispose();
  rmSync(dir, { recursive: true, force: true });
}
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const server of [...(group?.nodes ?? []), ...(group?.sentinels ?? []), ...(cluster?.nodes ?? [])])
    void server.stop(true).catch(() => {});
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\nchaos: ${signal}, tearing down`);
    void teardown().finally(() => process.exit(130));
  });
}
const limit = setTimeout(() => {
  console.error(`chaos: still running after ${RUN_LIMIT_MS / 1000} s, tearing down`);
  void teardown().finally(() => process.exit(1));
}, RUN_LIMIT_MS);
limit.unref();

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

// ---------------------------------------------------------------------------------------------
// Steady load: one looping client per era, every call recorded
// ---------------------------------------------------------------------------------------------

interface CallRecord {
  readonly era: 'modern' | 'legacy';
  readonly start: number;
  end: number;
  ok: boolean;
  error?: string;
  /** Each HTTP exchange of the call (its connect included): when, what, the status and the instance that answered. */
  readonly trail: string[];
}

interface Round {
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly at: number;
}

const calls: CallRecord[] = [];
/** Final rounds of completed modern calls, for the replay checks. */
const finals: Round[] = [];

/** What one HTTP exchange of a call was, for its trail: the method, and the JSON-RPC method or answer. */
function exchangeOf(request: Request, body: unknown): string {
  const message = body as { method?: unknown; result?: unknown; error?: unknown } | undefined;
  const what =
    typeof message?.method === 'string'
      ? message.method
      : message?.result !== undefined || message?.error !== undefined
        ? 'answer'
        : request.headers.has('last-event-id')
          ? 'resume'
          : '';
  return `${request.method} ${what}`.trim();
}

/**
 * A fetch for the calls of `record()`: notes each exchange in the call's trail, remembers each
 * modern call's last round, and tells `onLegacyCall` the instance answering a legacy `tools/call`.
 */
function recordingFetch(
  record: () => CallRecord | undefined,
  onLegacyCall: (instance: string) => void = () => {},
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = await postedJson(request);
    const call = record();
    const began = Date.now();
    const note = (outcome: string): void => {
      call?.trail.push(`+${began - (call?.start ?? began)} ms ${exchangeOf(request, body)}: ${outcome}`);
    };
    const response = await fetch(request).catch((error: unknown) => {
      note(`failed after ${Date.now() - began} ms (${error instanceof Error ? error.message : String(error)})`);
      throw error;
    });
    const instance = response.headers.get(INSTANCE_HEADER) ?? '';
    note(`${response.status} from ${instance || 'nginx'} after ${Date.now() - began} ms`);
    const message = body as { method?: string; params?: { requestState?: unknown } } | undefined;
    if (message?.method === 'tools/call') {
      if (typeof message.params?.requestState === 'string') {
        lastRound = { headers: Object.fromEntries(request.headers), body, at: Date.now() };
      } else onLegacyCall(instance);
    }
    return response;
  };
}
let lastRound: Round | undefined;

const answer = async (params: ElicitRequest['params']): Promise<ElicitResult> =>
  params.message.includes('stock')
    ? { action: 'accept', content: { restock: true } }
    : { action: 'accept', content: { full: true } };

/** One call of the three-leg refund (two questions); rejects unless the receipt is right. */
async function refund(connection: TestConnection): Promise<void> {
  const result = await connection.client.callTool(
    { name: 'refund_order', arguments: { order_id: 'ORD-7002', reason: 'chaos' } },
    { timeout: CALL_LIMIT_MS },
  );
  if (result.isError === true) {
    // A call that failed with an error the client can read (and retry on): not an answer lost.
    const text = result.content.map((part) => (part.type === 'text' ? part.text : part.type)).join(' ');
    throw new Error(`isError: ${text}`);
  }
  const receipt = result.structuredContent as { refunded_cents?: number } | undefined;
  if (receipt?.refunded_cents !== 4800) throw new Error(`wrong receipt: ${JSON.stringify(result)}`);
}

let loading = true;
const workers: Promise<void>[] = [];

/**
 * Calls the refund in a loop on one era, each call recorded. Only the official client's own
 * behaviour ends a call: no application hook aborts one when its stream drops.
 */
async function worker(era: 'modern' | 'legacy', url: URL): Promise<void> {
  let connection: TestConnection | undefined;
  let record: CallRecord | undefined;
  const recording = recordingFetch(() => record);
  while (loading) {
    record = { era, start: Date.now(), end: 0, ok: false, trail: [] };
    calls.push(record);
    try {
      connection ??= await connectHttp(url, { era, elicit: answer, transportOptions: { fetch: recording } });
      lastRound = undefined;
      await refund(connection);
      record.ok = true;
      if (era === 'modern' && lastRound !== undefined) finals.push(lastRound);
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
      await connection?.close().catch(() => {});
      connection = undefined;
    }
    record.end = Date.now();
    await new Promise((wake) => setTimeout(wake, 100));
  }
  await connection?.close().catch(() => {});
}

// ---------------------------------------------------------------------------------------------
// Measuring one fault
// ---------------------------------------------------------------------------------------------

interface Figures {
  readonly fault: string;
  failedCalls: number;
  errors: string[];
  longestWaitMs: number;
  recoveryMs: number;
  replaysAccepted: number;
  answersLost: number;
  instancesRecovered: boolean;
  /** For an instance killed: how long after the kill each call in flight then ended, in ms. */
  waitingEndedMs: number[];
}

/** What a fault is held to besides the checks every fault gets. */
interface Bounds {
  /** Replay final rounds of calls completed before the fault. */
  readonly replayBefore?: boolean;
  /** Calls succeed again on both eras within this many ms of the injection (default: the 30 s watch). */
  readonly recoveryMs?: number;
  /** When an instance was killed: every call in flight then ends within {@link KILL_NOTICE_MS}. */
  readonly killedAt?: () => number | undefined;
}

const figures: Figures[] = [];

/** Replays recorded final rounds straight to every instance; counts the ones accepted. */
async function replay(rounds: readonly Round[], instances: readonly StoryInstance[]): Promise<number> {
  let accepted = 0;
  for (const round of rounds) {
    for (const instance of instances) {
      const response = await fetch(`http://127.0.0.1:${instance.port}/mcp`, {
        method: 'POST',
        headers: { ...round.headers, host: `127.0.0.1:${instance.port}` },
        body: JSON.stringify(round.body),
      }).catch(() => undefined);
      const text = (await response?.text()) ?? '';
      if (text.includes('"result"')) accepted += 1;
    }
  }
  return accepted;
}

/** Whether each instance, straight (no nginx), completes a modern call: recovered without restart. */
async function everyInstanceServes(instances: readonly StoryInstance[]): Promise<boolean> {
  for (const instance of instances) {
    let ok = false;
    for (let attempt = 0; attempt < 20 && !ok; attempt++) {
      const connection = await connectHttp(new URL(`http://127.0.0.1:${instance.port}/mcp`), {
        era: 'modern',
        elicit: answer,
      }).catch(() => undefined);
      ok =
        connection !== undefined &&
        (await refund(connection).then(
          () => true,
          () => false,
        ));
      await connection?.close().catch(() => {});
      if (!ok) await new Promise((wake) => setTimeout(wake, 500));
    }
    if (!ok) return false;
  }
  return true;
}

/** Prints the trail of each call of `window` that failed, waited past `slowMs` or was in `also`, relative to `at`. */
function printTrails(window: readonly CallRecord[], at: number, slowMs: number, also: readonly CallRecord[]): void {
  const now = Date.now();
  for (const call of window) {
    const waited = (call.end === 0 ? now : call.end) - call.start;
    if (call.ok && waited <= slowMs && !also.includes(call)) continue;
    const how = call.end === 0 ? 'still waiting' : call.ok ? 'completed' : `failed: ${call.error ?? '?'}`;
    console.log(`    ${call.era} call from +${call.start - at} ms, ${waited} ms, ${how}`);
    for (const line of call.trail) console.log(`      ${line}`);
  }
}

/** Injects a fault, then watches the load until calls succeed again on both eras, and reports. */
async function measure(
  fault: string,
  instances: () => readonly StoryInstance[],
  inject: () => Promise<void>,
  bounds: Bounds = {},
): Promise<void> {
  console.log(`\n=== ${fault} ===`);
  const before = bounds.replayBefore === true ? finals.slice(-3) : [];
  const from = calls.length;
  const failedBefore = failed;
  const at = Date.now();
  await inject();
  // Watched from the end of the injection: an injection that restarts an instance takes as long as
  // the restart does on a loaded machine, and recovery is measured from the injection anyway.
  const injectedMs = Date.now() - at;
  // Calls succeed again on an era once a call that started after its last failure (or after the
  // injection, when none failed) completed. The recovery time is how long the era was disturbed:
  // until that call completed when calls failed, 0 when none did (a call's own length is not
  // disturbance). A call that hangs holds its worker, so no later call completes: the watch runs out.
  const deadline = Date.now() + WATCH_MS;
  const recoveredOn = (era: 'modern' | 'legacy'): number | undefined => {
    const mine = calls.slice(from).filter((call) => call.era === era && call.end !== 0);
    const failures = mine.filter((call) => !call.ok);
    const lastFailure = Math.max(at, ...failures.map((call) => call.end));
    const end = mine.find((call) => call.ok && call.start >= lastFailure)?.end;
    return end === undefined ? undefined : failures.length === 0 ? 0 : end - at;
  };
  const killedAt = bounds.killedAt?.();
  const inFlightAtKill = (): CallRecord[] =>
    killedAt === undefined
      ? []
      : calls.filter((call) => call.start <= killedAt && (call.end === 0 || call.end >= killedAt));
  let recoveryMs = Number.POSITIVE_INFINITY;
  await new Promise((wake) => setTimeout(wake, 1_000));
  while (Date.now() < deadline) {
    const eras = [recoveredOn('modern'), recoveredOn('legacy')];
    if (eras.every((ms) => ms !== undefined) && inFlightAtKill().every((call) => call.end !== 0)) {
      recoveryMs = Math.max(...eras.map((ms) => ms ?? 0));
      break;
    }
    await new Promise((wake) => setTimeout(wake, 100));
  }
  const window = calls.slice(from);
  const failures = window.filter((call) => !call.ok && call.end !== 0);
  const hung = window.filter((call) => call.end === 0 && Date.now() - call.start > CALL_LIMIT_MS);
  const replaysAccepted = await replay(before, instances());
  const waiting = inFlightAtKill();
  const result: Figures = {
    fault,
    failedCalls: failures.length,
    errors: [
      ...new Set(failures.map((call) => `${call.era}: ${(call.error ?? '?').replace(/\s+/g, ' ').slice(0, 200)}`)),
    ],
    longestWaitMs: Math.max(0, ...window.map((call) => (call.end === 0 ? Date.now() : call.end) - call.start)),
    recoveryMs,
    replaysAccepted,
    answersLost: hung.length + window.filter((call) => call.error?.startsWith('wrong receipt') === true).length,
    instancesRecovered: await everyInstanceServes(instances()),
    waitingEndedMs: waiting.map((call) => (call.end === 0 ? Date.now() : call.end) - (killedAt ?? 0)),
  };
  figures.push(result);
  console.log(`  injected in ${injectedMs} ms; calls in the window: ${window.length}, failed: ${result.failedCalls}`);
  for (const error of result.errors) console.log(`    ${error}`);
  console.log(`  longest wait: ${result.longestWaitMs} ms; calls succeed again after ${result.recoveryMs} ms`);
  if (killedAt !== undefined) {
    // None is a possible outcome: both looping clients may sit between calls at the kill.
    console.log(
      `  calls in flight at the kill: ${waiting.length}, ended after ${result.waitingEndedMs.join(', ') || '–'} ms`,
    );
  }
  if (before.length > 0)
    console.log(`  replayed ${before.length} final round(s) of calls completed before, on every instance`);
  const recoveryBound = bounds.recoveryMs ?? WATCH_MS;
  check(result.replaysAccepted === 0, `${fault}: replays accepted ${result.replaysAccepted}`);
  check(result.answersLost === 0, `${fault}: answers lost ${result.answersLost}`);
  check(result.longestWaitMs <= CALL_LIMIT_MS, `${fault}: no call waited more than 30 s`);
  check(result.recoveryMs <= recoveryBound, `${fault}: calls succeed again on both eras within ${recoveryBound} ms`);
  check(result.instancesRecovered, `${fault}: every instance serves again without a restart`);
  if (bounds.killedAt !== undefined) {
    check(
      killedAt !== undefined && result.waitingEndedMs.every((ms) => ms <= KILL_NOTICE_MS),
      `${fault}: every call in flight at the kill ended within ${KILL_NOTICE_MS} ms`,
    );
  }
  if (failed > failedBefore) {
    console.log('  calls that failed, waited over 2 s or were in flight at the kill (times from the injection):');
    printTrails(window, at, 2_000, waiting);
  }
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

/** A fleet of three desk instances behind nginx, started with `args` (how they reach Redis). */
interface Fleet {
  readonly instances: StoryInstance[];
  readonly nginx: ChildProcess;
  readonly url: URL;
  /** Starts `victim` again (after it exited) on its port. */
  restart(victim: StoryInstance): Promise<void>;
  /** Stops the load, the instances and nginx. */
  stop(): Promise<void>;
}

/** Starts three instances reaching Redis by `args`, nginx in front, and one looping client per era. */
async function startFleet(args: readonly string[], name: string): Promise<Fleet> {
  const env: NodeJS.ProcessEnv = { ...process.env, MCP_REQUEST_STATE_KEYS: randomBytes(32).toString('hex') };
  const start = (id: string, port: number) => startInstanceProcess(id, port, DESK, args, env, track);
  const ports = await Promise.all([0, 1, 2].map(() => freePort()));
  const instances = await Promise.all(ports.map((port, index) => start(`${name}-${index}`, port)));
  console.log(`  instances: ${instances.map((instance) => `${instance.id} on :${instance.port}`).join(', ')}`);
  const nginxPort = await freePort();
  const nginx = await startNginx(findBinary('nginx') ?? 'nginx', join(dir, `nginx-${name}`), nginxPort, ports, track);
  const url = new URL(`http://127.0.0.1:${nginxPort}/mcp`);
  console.log(`  nginx round-robin on ${url.href}; steady load: one looping client per era`);
  loading = true;
  finals.length = 0;
  workers.push(worker('modern', url), worker('legacy', url));
  await new Promise((wake) => setTimeout(wake, 2_000));
  return {
    instances,
    nginx,
    url,
    async restart(victim) {
      if (victim.child.exitCode === null && victim.child.signalCode === null) await once(victim.child, 'exit');
      instances[instances.indexOf(victim)] = await start(victim.id, victim.port);
    },
    async stop() {
      loading = false;
      await Promise.all(workers.splice(0));
      await Promise.all([nginx, ...instances.map((instance) => instance.child)].map((child) => stopChild(child)));
    },
  };
}

/** An instance killed during a task body: the task is resumed and completed on another instance. */
async function taskBodyKilled(fleet: Fleet, where: string): Promise<void> {
  const { instances, url } = fleet;
  let taskOutcome = '';
  let taskKilledAt: number | undefined;
  let taskElapsedMs = 0;
  let taskVictim = '';
  await measure(
    `an instance SIGKILLed during a task body${where}`,
    () => instances,
    async () => {
      const capabilities: ClientCapabilities = { extensions: { [TASKS_EXTENSION]: {} } };
      let creator = '';
      const connection = await connectHttp(url, {
        era: 'modern',
        capabilities,
        transportOptions: {
          fetch: async (input, init) => {
            const response = await fetch(input, init);
            if (creator === '' && typeof init?.body === 'string' && init.body.includes('audit_order')) {
              creator = response.headers.get(INSTANCE_HEADER) ?? '';
            }
            return response;
          },
        },
      });
      const created = await connection.client.callTool({ name: 'audit_order', arguments: { order_id: 'ORD-7002' } });
      const taskId = taskOf(created)?.taskId ?? '';
      await new Promise((wake) => setTimeout(wake, 500));
      const victim = instances.find((instance) => instance.id === creator);
      victim?.child.kill('SIGKILL');
      const killedAt = Date.now();
      taskKilledAt = killedAt;
      console.log(`  task ${taskId.slice(0, 8)}… running on ${victim?.id ?? '?'}: killed it during the body`);
      let status = 'working';
      let message = '';
      while (status === 'working' && Date.now() - killedAt < 20_000) {
        await new Promise((wake) => setTimeout(wake, 250));
        const task = await getTask(connection.client, taskId).catch(() => undefined);
        status = task?.status ?? status;
        const text = task?.result?.content?.map((block) => ('text' in block ? block.text : '')).join('') ?? '';
        message = task?.error?.message ?? text;
      }
      taskElapsedMs = Date.now() - killedAt;
      taskOutcome = `${status} after ${taskElapsedMs} ms: ${message}`;
      taskVictim = victim?.id ?? '';
      console.log(`  tasks/get reports it ${taskOutcome}`);
      await connection.close().catch(() => {});
      if (victim !== undefined) await fleet.restart(victim);
    },
    { killedAt: () => taskKilledAt },
  );
  const taskBoundMs = CHAOS_LEASE_MS + AUDIT_BODY_MS + 5_000;
  check(
    taskOutcome.startsWith('completed') &&
      taskVictim !== '' &&
      !taskOutcome.endsWith(` on ${taskVictim}.`) &&
      taskElapsedMs <= taskBoundMs,
    `during a task body${where}: the task is resumed and completed on another instance within ${taskBoundMs} ms of the kill (lease ${CHAOS_LEASE_MS} ms + body ${AUDIT_BODY_MS} ms + 5 s)`,
  );
}

/** The faults on a Sentinel group: failover, a pause, an empty restart, instances killed, nginx reloaded. */
async function sentinelFaults(): Promise<void> {
  console.log('=== setup: Redis Sentinel ===');
  const sentinel = await startSentinelGroup(MASTER, { downAfterMs: 3_000, failoverTimeoutMs: 10_000 });
  group = sentinel;
  console.log(
    `  redis: primary :${sentinel.nodes[0]?.port}, replicas ${sentinel.nodes
      .slice(1)
      .map((node) => `:${node.port}`)
      .join(' ')}; sentinels ${sentinel.addresses.join(' ')} (quorum 2, down-after 3 s)`,
  );
  const fleet = await startFleet(['--sentinels', sentinel.addresses.join(','), '--master-name', MASTER], 'desk');
  const { instances, url, nginx } = fleet;
  const current = () => instances;
  await measure(
    'primary killed (Sentinel failover)',
    current,
    async () => {
      const primary = await sentinel.primary();
      await primary.stop(true);
      const started = Date.now();
      while ((await sentinel.primary().catch(() => primary)) === primary && Date.now() - started < 20_000) {
        await new Promise((wake) => setTimeout(wake, 200));
      }
      console.log(
        `  killed :${primary.port}; sentinels promoted :${(await sentinel.primary()).port} after ${Date.now() - started} ms`,
      );
      await primary.restart(); // it comes back empty; the sentinels make it a replica of the new primary
    },
    { replayBefore: true },
  );

  await measure('primary paused (SIGSTOP) 2.5 s, past the 2 s command deadline', current, async () => {
    const primary = await sentinel.primary();
    primary.pause();
    await new Promise((wake) => setTimeout(wake, 2_500));
    primary.resume();
  });

  await measure(
    'primary restarted empty (no persistence)',
    current,
    async () => {
      const primary = await sentinel.primary();
      await primary.stop(true);
      await primary.restart();
      console.log(`  restarted :${primary.port} empty before the sentinels noticed; the replicas resync from it`);
    },
    { replayBefore: true },
  );

  let pushVictim: StoryInstance | undefined;
  let pushKilledAt: number | undefined;
  await measure(
    'an instance SIGKILLed during a push (2025-11-25)',
    current,
    async () => {
      let holder = '';
      const elicit = async (params: ElicitRequest['params']): Promise<ElicitResult> => {
        if (pushKilledAt === undefined) {
          pushVictim = instances.find((instance) => instance.id === holder);
          pushVictim?.child.kill('SIGKILL');
          pushKilledAt = Date.now();
          console.log(`  ${pushVictim?.id ?? '?'} killed while its push waited for this answer`);
        }
        return answer(params);
      };
      const record: CallRecord = { era: 'legacy', start: Date.now(), end: 0, ok: false, trail: [] };
      calls.push(record);
      const fetch = recordingFetch(
        () => record,
        (instance) => (holder = instance),
      );
      const connection = await connectHttp(url, { era: 'legacy', elicit, transportOptions: { fetch } });
      await refund(connection).then(
        () => (record.ok = true),
        (error: unknown) =>
          (record.error = `the pushed call: ${error instanceof Error ? error.message : String(error)}`),
      );
      record.end = Date.now();
      console.log(
        `  the pushed call ended ${record.end - (pushKilledAt ?? record.start)} ms after the kill: ${record.ok ? 'completed' : record.error}`,
      );
      await connection.close().catch(() => {});
      if (pushVictim !== undefined) await fleet.restart(pushVictim);
    },
    { killedAt: () => pushKilledAt },
  );
  check(pushVictim !== undefined, 'during a push: the instance holding the call was found and killed');

  await taskBodyKilled(fleet, '');

  await measure(
    'nginx reloaded (SIGHUP)',
    current,
    async () => {
      nginx.kill('SIGHUP');
      await new Promise((wake) => setTimeout(wake, 500));
    },
    { recoveryMs: RELOAD_RECOVERY_MS },
  );

  await fleet.stop();
  await sentinel.dispose();
  group = undefined;
}

/** The faults on a Redis Cluster: a primary killed (its replica promoted), an instance killed during a task body. */
async function clusterFaults(): Promise<void> {
  console.log('\n=== setup: Redis Cluster ===');
  const started = await startRedisCluster(CLUSTER_NODE_TIMEOUT_MS);
  cluster = started;
  console.log(
    `  redis cluster: ${started.addresses.join(' ')} (3 primaries, 3 replicas, cluster-node-timeout ${CLUSTER_NODE_TIMEOUT_MS} ms)`,
  );
  const fleet = await startFleet(['--cluster', started.addresses.join(',')], 'cdesk');
  const { instances } = fleet;
  await measure(
    'cluster: the replay guard’s primary killed (its replica promoted)',
    () => instances,
    async () => {
      const primary = await started.primaryFor('{mcp-resolve:replay:}epoch');
      const [replica] = await started.replicasOf(primary.port);
      await primary.stop(true);
      const killedAt = Date.now();
      let promoted = primary;
      while (promoted === primary && Date.now() - killedAt < 20_000) {
        await new Promise((wake) => setTimeout(wake, 200));
        promoted = await started.primaryFor('{mcp-resolve:replay:}epoch').catch(() => primary);
      }
      await started.healthy(20_000);
      console.log(
        `  killed :${primary.port}; the cluster promoted :${promoted.port} (its replica was :${replica?.port ?? '?'}) after ${Date.now() - killedAt} ms`,
      );
      await primary.restart(); // it comes back empty and rejoins as a replica of the new primary
    },
    { replayBefore: true },
  );
  await taskBodyKilled(fleet, ' (cluster)');
  await fleet.stop();
}

async function main(): Promise<void> {
  const missing = ['redis-server', 'redis-sentinel', 'redis-cli', 'nginx'].filter(
    (name) => findBinary(name) === undefined,
  );
  if (missing.length > 0) {
    console.error(`chaos: ${missing.join(', ')} not found. Install with:\n  ${INSTALL_HINT}`);
    process.exitCode = 1;
    return;
  }
  await sentinelFaults();
  await clusterFaults();

  console.log('\n=== figures ===');
  console.log(
    '| fault | failed calls | longest wait | calls succeed again after | calls in flight at the kill ended after | replays accepted | answers lost | recovered unaided |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of figures) {
    const waiting = row.waitingEndedMs.length === 0 ? '–' : `${row.waitingEndedMs.join(', ')} ms`;
    console.log(
      `| ${row.fault} | ${row.failedCalls} | ${row.longestWaitMs} ms | ${row.recoveryMs} ms | ${waiting} | ${row.replaysAccepted} | ${row.answersLost} | ${row.instancesRecovered ? 'yes' : 'no'} |`,
    );
  }
}

try {
  await main();
} catch (error) {
  failed += 1;
  console.error(`chaos: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  loading = false;
  await Promise.race([Promise.all(workers), new Promise((wake) => setTimeout(wake, CALL_LIMIT_MS))]);
  await teardown();
}
console.log(`\nchaos: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
