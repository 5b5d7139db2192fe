/**
 * 10. Hosting: the refund desk served by mcp-resolve's `serveHttp` against the same desk written by
 * hand on the SDK and served by the SDK's own `createMcpHandler` (behind its `toNodeHandler`), side
 * by side in one run, on the call that asks nothing and on the 3-leg call, at 1, 8 and 32 clients;
 * with p50/p99 latency, the server's CPU per request against the floor (a bare `node:http` JSON
 * echo), and each server's memory with 1,000 calls in flight.
 */
import type { BenchContext, Benchmark, Json, TargetCheck } from '../lib/registry.js';
import type { LoadResult, Scenario } from '../lib/load.js';
import { runLoad, warmUp } from '../lib/load.js';
import { cpuMsOf } from '../lib/cpu.js';
import { MEMORY_COLUMNS, memoryRows } from '../lib/memory.js';
import type { ServerProcess } from '../lib/processes.js';
import { startServer } from '../lib/processes.js';
import type { Summary } from '../lib/stats.js';
import { fmt, fmtRatio, ratioAtLeast, summarize } from '../lib/stats.js';
import { anyDeskCall } from '../fixtures/anyDeskHttp.js';
import type { DeskCall } from '../fixtures/deskCalls.js';
import { QUIET_CALL, THREE_LEG_CALL } from '../fixtures/deskCalls.js';
import { echoCall } from '../fixtures/deskHttp.js';

const LEVELS = [1, 8, 32] as const;
const TARGET = 1.5;
/** Calls in flight at once for the memory row. */
const IN_FLIGHT = 1_000;
const CALLS: ReadonlyArray<{ readonly name: string; readonly call: DeskCall }> = [
  { name: 'asks nothing (ORD-7001, 1 leg)', call: QUIET_CALL },
  { name: '3-leg (ORD-7002)', call: THREE_LEG_CALL },
];

/** One measured run: the load result and the server's CPU per HTTP request, in µs. */
interface Measured {
  readonly load: LoadResult;
  readonly cpuUsPerRequest: number | undefined;
}

/** Runs `scenario` against `server` and reads the server's CPU time around it. */
async function measure(
  server: ServerProcess,
  scenario: Scenario,
  legs: number,
  clients: number,
  durationMs: number,
): Promise<Measured> {
  const before = cpuMsOf(server.pid);
  const load = await runLoad(server.url, scenario, clients, durationMs);
  const after = cpuMsOf(server.pid);
  const requests = (load.calls + load.errors) * legs;
  const cpuUsPerRequest =
    before === undefined || after === undefined || requests === 0 ? undefined : ((after - before) * 1000) / requests;
  return { load, cpuUsPerRequest };
}

/** The servers of one comparison, started together and always stopped. */
async function startServers(): Promise<{
  resolve: ServerProcess;
  sdk: ServerProcess;
  echo: ServerProcess;
  stop(): Promise<void>;
}> {
  const started = await Promise.allSettled([
    startServer('bench/servers/hosted-desk.ts', ['--hosting', 'resolve', '--port', '0'], { builtPackage: true }),
    startServer('bench/servers/hosted-desk.ts', ['--hosting', 'sdk-raw', '--port', '0'], { builtPackage: true }),
    startServer('bench/servers/echo.ts', ['--port', '0']),
  ]);
  const running = started.flatMap((server) => (server.status === 'fulfilled' ? [server.value] : []));
  const stop = async () => void (await Promise.all(running.map((server) => server.stop())));
  const [resolve, sdk, echo] = running;
  if (running.length !== 3 || resolve === undefined || sdk === undefined || echo === undefined) {
    await stop();
    const failure = started.find((server) => server.status === 'rejected');
    throw failure?.status === 'rejected' ? failure.reason : new Error('a server did not start');
  }
  return { resolve, sdk, echo, stop };
}

const OURS = 'mcp-resolve serveHttp';
const HOSTINGS = [OURS, 'SDK createMcpHandler, hand-written desk', 'node:http echo (floor)'] as const;

/** The runs of one call at one level: each hosting's, and the per-pair ratios ours / SDK. */
interface LevelRuns {
  readonly runs: ReadonlyArray<readonly Measured[]>;
  readonly ratios: readonly number[];
}

/** Measures one call at one level: the two hostings alternate, the floor runs after each pair. */
async function measureLevel(
  servers: Awaited<ReturnType<typeof startServers>>,
  call: DeskCall,
  clients: number,
  timing: { readonly durationMs: number; readonly warmupMs: number; readonly reps: number },
): Promise<LevelRuns> {
  const scenario = anyDeskCall(call);
  const ours: Measured[] = [];
  const theirs: Measured[] = [];
  const floor: Measured[] = [];
  const ratios: number[] = [];
  for (const server of [servers.resolve, servers.sdk]) await runLoad(server.url, scenario, clients, timing.warmupMs);
  for (let rep = 0; rep < timing.reps; rep++) {
    const pair = rep % 2 === 0 ? [servers.resolve, servers.sdk] : [servers.sdk, servers.resolve];
    const results = new Map<ServerProcess, Measured>();
    for (const server of pair)
      results.set(server, await measure(server, scenario, call.modernLegs, clients, timing.durationMs));
    const mine = results.get(servers.resolve);
    const sdk = results.get(servers.sdk);
    if (mine === undefined || sdk === undefined) continue;
    ours.push(mine);
    theirs.push(sdk);
    ratios.push(mine.load.callsPerSecond / sdk.load.callsPerSecond);
    floor.push(await measure(servers.echo, echoCall([136, 298]), 3, clients, timing.durationMs));
  }
  return { runs: [ours, theirs, floor], ratios };
}

const cpuCell = (values: readonly (number | undefined)[]): string => {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length === 0 ? 'n/a' : fmt(summarize(known).median, 0);
};

/** The table rows (and JSON) of one call at one level, one per hosting. */
function levelRows(
  name: string,
  clients: number,
  level: LevelRuns,
  ratio: Summary,
  context: BenchContext,
): Array<{ cells: string[]; data: Json }> {
  return HOSTINGS.map((hostingName, index) => {
    const runs = level.runs[index] ?? [];
    const rate = summarize(runs.map((run) => run.load.callsPerSecond));
    const p50 = summarize(runs.map((run) => run.load.p50));
    const p99 = summarize(runs.map((run) => run.load.p99));
    const cpu = cpuCell(runs.map((run) => run.cpuUsPerRequest));
    const errors = runs.reduce((sum, run) => sum + run.load.errors, 0);
    const isOurs = hostingName === OURS;
    context.log(
      `  ${name}, ${clients} client(s), ${hostingName}: ${fmt(rate.median)} calls/s, p50 ${fmt(p50.median)} ms, p99 ${fmt(p99.median)} ms, ${cpu} µs CPU/request`,
    );
    const cells = [
      name,
      String(clients),
      hostingName,
      fmt(rate.median),
      fmt(p50.median),
      fmt(p99.median),
      cpu,
      String(errors),
    ];
    cells.push(isOurs ? fmtRatio(ratio) : '');
    const data: Json = {
      call: name,
      clients,
      hosting: hostingName,
      callsPerSecond: { ...rate },
      p50Ms: { ...p50 },
      p99Ms: { ...p99 },
      cpuUsPerRequest: cpu,
      errors,
      ...(isOurs && { ratioToSdk: { ...ratio } }),
    };
    return { cells, data };
  });
}

export const hosting: Benchmark = {
  id: 'hosting',
  title: '10. Hosting: serveHttp against the SDK’s createMcpHandler',
  async run(context) {
    const timing = {
      durationMs: context.pick(2_500, 300),
      warmupMs: context.pick(1_000, 150),
      reps: context.pick(3, 1),
    };
    const firstWarmupMs = context.pick(5_000, 400);
    const servers = await startServers();
    try {
      const rows: string[][] = [];
      const targets: TargetCheck[] = [];
      const data: Json[] = [];
      for (const { name, call } of CALLS) {
        const scenario = anyDeskCall(call);
        for (const server of [servers.resolve, servers.sdk])
          await warmUp(server.url, scenario, firstWarmupMs, `${name}: the call does not complete`);
        for (const clients of LEVELS) {
          const level = await measureLevel(servers, call, clients, timing);
          const ratio = summarize(level.ratios);
          for (const row of levelRows(name, clients, level, ratio, context)) {
            rows.push(row.cells);
            data.push(row.data);
          }
          targets.push(ratioAtLeast(`${name}: serveHttp vs SDK createMcpHandler, ${clients} client(s)`, ratio, TARGET));
        }
      }
      const memoryMs = context.pick(3_000, 600);
      const memory = await memoryRows(
        [
          [HOSTINGS[0], servers.resolve],
          [HOSTINGS[1], servers.sdk],
        ],
        anyDeskCall(QUIET_CALL),
        { inFlight: IN_FLIGHT, durationMs: memoryMs, log: (line) => context.log(line) },
      );
      data.push(...memory.map((row) => row.data));
      return {
        tables: [
          {
            columns: [
              'call',
              'clients',
              'hosting',
              'calls/s',
              'p50 ms',
              'p99 ms',
              'server CPU µs/request',
              'failed',
              'serveHttp / SDK',
            ],
            rows,
          },
          {
            caption: `Memory with ${IN_FLIGHT} asks-nothing calls in flight`,
            columns: MEMORY_COLUMNS,
            rows: memory.map((row) => row.cells),
          },
        ],
        notes: [
          "Ours is the story's desk (`createRefundDesk()` from the built package) on `serveHttp(desk)` (both eras on one URL, DNS-rebinding guard, one body read). The SDK's side is the same desk written by hand on the SDK (bench/fixtures/rawDesk.ts: `McpServer.registerTool`, its own `input_required` rounds with `requestState` signed by the SDK's codec) on `toNodeHandler(createMcpHandler(factory))`, the SDK's own Node hosting with its defaults. A call is every leg of it, answered and checked (the receipt). The floor sends the 3-leg call's three bodies to an echo.",
          `Load: this process, N workers on keep-alive loopback connections, ${timing.durationMs / 1000} s per run after ${firstWarmupMs / 1000} s of warm-up per server and call, then ${timing.warmupMs / 1000} s per level; the two hostings alternate, ${timing.reps} run(s) each; the ratio is the median of per-run-pair ratios of calls/s. Figures are medians over runs; p50 and p99 are the latency of one whole call.`,
          'Server CPU per request: user + system time of the server process (`/proc/<pid>/stat`, 10 ms ticks) over the run, divided by the HTTP requests sent (calls × legs). `npm run profile` writes CPU profiles of both hostings and reads them (contributing/performance.md, "Where a request\'s time goes").',
          `Memory: ${IN_FLIGHT} workers, each on its own connection, run the asks-nothing call back to back for ${memoryMs / 1000} s, so about ${IN_FLIGHT} calls are in flight at once; RSS is the server process's (\`/proc/<pid>/status\` VmRSS) just before the run and the highest sampled every 25 ms during it.`,
        ],
        targets,
        data,
      };
    } finally {
      await servers.stop();
    }
  },
};
