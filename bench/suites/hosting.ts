/**
 * 10. Hosting: the same refund desk served by mcp-resolve's `serveHttp` and by the SDK's own
 * `createMcpHandler` (behind its `toNodeHandler`), side by side in one run, on the call that asks
 * nothing and on the 3-leg call, at 1, 8 and 32 clients; with p99 latency and the server's CPU per
 * request against the floor (a bare `node:http` JSON echo).
 */
import type { Benchmark, Json, TargetCheck } from '../lib/registry.js';
import type { LoadResult, Scenario } from '../lib/load.js';
import { runLoad } from '../lib/load.js';
import { cpuMsOf } from '../lib/cpu.js';
import type { ServerProcess } from '../lib/processes.js';
import { startServer } from '../lib/processes.js';
import { fmt, fmtRatio, ratioAtLeast, summarize } from '../lib/stats.js';
import { anyDeskCall } from '../fixtures/anyDeskHttp.js';
import type { DeskCall } from '../fixtures/deskCalls.js';
import { QUIET_CALL, THREE_LEG_CALL } from '../fixtures/deskCalls.js';
import { echoCall } from '../fixtures/deskHttp.js';

const LEVELS = [1, 8, 32] as const;
const TARGET = 1.15;
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
    startServer('bench/servers/hosted-desk.ts', ['--hosting', 'sdk', '--port', '0'], { builtPackage: true }),
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

const cpuCell = (values: readonly (number | undefined)[]): string => {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length === 0 ? 'n/a' : fmt(summarize(known).median, 0);
};

export const hosting: Benchmark = {
  id: 'hosting',
  title: '10. Hosting: serveHttp against the SDK’s createMcpHandler',
  async run(context) {
    const durationMs = context.pick(2_500, 300);
    const warmupMs = context.pick(1_000, 150);
    const firstWarmupMs = context.pick(5_000, 400);
    const reps = context.pick(3, 1);
    const servers = await startServers();
    try {
      const floorScenario = echoCall([136, 298]);
      const rows: string[][] = [];
      const targets: TargetCheck[] = [];
      const data: Json[] = [];
      for (const { name, call } of CALLS) {
        const scenario = anyDeskCall(call);
        for (const server of [servers.resolve, servers.sdk]) {
          const check = await runLoad(server.url, scenario, 1, 1);
          if (check.errors > 0 || check.calls === 0) throw new Error(`${name}: the call does not complete`);
          await runLoad(server.url, scenario, 8, firstWarmupMs);
        }
        for (const clients of LEVELS) {
          const ours: Measured[] = [];
          const theirs: Measured[] = [];
          const floor: Measured[] = [];
          const ratios: number[] = [];
          for (const server of [servers.resolve, servers.sdk]) await runLoad(server.url, scenario, clients, warmupMs);
          for (let rep = 0; rep < reps; rep++) {
            const pair =
              rep % 2 === 0 ? ([servers.resolve, servers.sdk] as const) : ([servers.sdk, servers.resolve] as const);
            const results = new Map<ServerProcess, Measured>();
            for (const server of pair)
              results.set(server, await measure(server, scenario, call.modernLegs, clients, durationMs));
            const mine = results.get(servers.resolve);
            const sdk = results.get(servers.sdk);
            if (mine === undefined || sdk === undefined) continue;
            ours.push(mine);
            theirs.push(sdk);
            ratios.push(mine.load.callsPerSecond / sdk.load.callsPerSecond);
            floor.push(await measure(servers.echo, floorScenario, 3, clients, durationMs));
          }
          const ratio = summarize(ratios);
          for (const [hostingName, runs] of [
            ['mcp-resolve serveHttp', ours],
            ['SDK createMcpHandler', theirs],
            ['node:http echo (floor)', floor],
          ] as const) {
            const rate = summarize(runs.map((run) => run.load.callsPerSecond));
            const p50 = summarize(runs.map((run) => run.load.p50));
            const p99 = summarize(runs.map((run) => run.load.p99));
            const cpu = cpuCell(runs.map((run) => run.cpuUsPerRequest));
            const errors = runs.reduce((sum, run) => sum + run.load.errors, 0);
            context.log(
              `  ${name}, ${clients} client(s), ${hostingName}: ${fmt(rate.median)} calls/s, p99 ${fmt(p99.median)} ms, ${cpu} µs CPU/request`,
            );
            const isOurs = hostingName === 'mcp-resolve serveHttp';
            rows.push([
              name,
              String(clients),
              hostingName,
              fmt(rate.median),
              fmt(p50.median),
              fmt(p99.median),
              cpu,
              String(errors),
              isOurs ? fmtRatio(ratio) : '',
            ]);
            data.push({
              call: name,
              clients,
              hosting: hostingName,
              callsPerSecond: { ...rate },
              p50Ms: { ...p50 },
              p99Ms: { ...p99 },
              cpuUsPerRequest: cpu,
              errors,
              ...(isOurs && { ratioToSdk: { ...ratio } }),
            });
          }
          targets.push(ratioAtLeast(`${name}: serveHttp vs SDK createMcpHandler, ${clients} client(s)`, ratio, TARGET));
        }
      }
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
        ],
        notes: [
          "Both hostings serve the same desk object (`createRefundDesk()` from the built package): `serveHttp(desk)` (both eras on one URL, DNS-rebinding guard, one body read) and `toNodeHandler(createMcpHandler(desk.createServer))`, the SDK's own Node hosting with its defaults. A call is every leg of it, answered and checked (the receipt). The floor sends the 3-leg call's three bodies to an echo.",
          `Load: this process, N workers on keep-alive loopback connections, ${durationMs / 1000} s per run after ${firstWarmupMs / 1000} s of warm-up per server and call, then ${warmupMs / 1000} s per level; the two hostings alternate, ${reps} run(s) each; the ratio is the median of per-run-pair ratios of calls/s. Figures are medians over runs.`,
          'Server CPU per request: user + system time of the server process (`/proc/<pid>/stat`, 10 ms ticks) over the run, divided by the HTTP requests sent (calls × legs). `npm run profile` writes CPU profiles of both hostings and reads them (contributing/performance.md, "Where a request\'s time goes").',
        ],
        targets,
        data,
      };
    } finally {
      await servers.stop();
    }
  },
};
