/**
 * 8. Reference: our refund desk against the same desk written on the official Python SDK
 * (`mcp==2.3.0`, `MCPServer` + `Resolve`, interop/python), both over HTTP on 2026-07-28, loaded by
 * the same raw generator with the same contract-level requests, alternating in one run.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

import { listeningUrl } from '../../examples/stories/lib/serverProcess.js';
import { stopChild } from '../../scripts/lib/processes.js';
import { ensurePythonEnv } from '../../scripts/lib/python.js';
import { anyDeskCall } from '../fixtures/anyDeskHttp.js';
import { QUIET_CALL, THREE_LEG_CALL } from '../fixtures/deskCalls.js';
import type { LoadResult, Scenario } from '../lib/load.js';
import { runLoad, warmUp } from '../lib/load.js';
import { MEMORY_COLUMNS, memoryRows } from '../lib/memory.js';
import type { ServerProcess } from '../lib/processes.js';
import { startServer } from '../lib/processes.js';
import type { Benchmark, Json, TargetCheck } from '../lib/registry.js';
import type { Summary } from '../lib/stats.js';
import { fmt, fmtRatio, ratioAtLeast, summarize } from '../lib/stats.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TARGET = 5;
/** Calls in flight at once for the memory row. */
const IN_FLIGHT = 1_000;

/** The Python desk as a server process. */
async function startPythonDesk(): Promise<ServerProcess> {
  const env = ensurePythonEnv(join(ROOT, 'node_modules', '.cache', 'mcp-resolve-interop'));
  const child = spawn(env.python, ['-m', 'mcp_interop.desk_server', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: join(ROOT, 'interop', 'python') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const url = await listeningUrl(child, { name: 'python desk', timeoutMs: 30_000 });
    return { url, pid: child.pid, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Both desks at one level: `reps` alternating runs, the ratio of rates and each side's latency. */
async function measureLevel(
  servers: Readonly<Record<'ours' | 'python', ServerProcess>>,
  name: string,
  scenario: Scenario,
  level: number,
  timing: { readonly durationMs: number; readonly warmupMs: number; readonly reps: number },
): Promise<{ cells: string[]; data: Json; ratio: Summary }> {
  for (const server of Object.values(servers)) await runLoad(server.url, scenario, level, timing.warmupMs);
  const runs = { ours: [] as LoadResult[], python: [] as LoadResult[] };
  const ratios: number[] = [];
  for (let rep = 0; rep < timing.reps; rep++) {
    const order = rep % 2 === 0 ? (['ours', 'python'] as const) : (['python', 'ours'] as const);
    for (const side of order) {
      const result = await runLoad(servers[side].url, scenario, level, timing.durationMs);
      if (result.errors > 0) throw new Error(`${name}, ${side} desk: ${result.errors} failed call(s)`);
      runs[side].push(result);
    }
    ratios.push((runs.ours.at(-1)?.callsPerSecond ?? Number.NaN) / (runs.python.at(-1)?.callsPerSecond ?? Number.NaN));
  }
  const ratio = summarize(ratios);
  const rate = (side: 'ours' | 'python') => summarize(runs[side].map((run) => run.callsPerSecond));
  const latency = (side: 'ours' | 'python', q: 'p50' | 'p99') => summarize(runs[side].map((run) => run[q])).median;
  const latencies = (['ours', 'python'] as const).flatMap((side) => [latency(side, 'p50'), latency(side, 'p99')]);
  const cells = [name, String(level), fmt(rate('ours').median), fmt(rate('python').median), fmtRatio(ratio)];
  cells.push(...latencies.map((value) => fmt(value)));
  const [oursP50, oursP99, pythonP50, pythonP99] = latencies;
  const data = { call: name, concurrency: level, ours: { ...rate('ours') }, python: { ...rate('python') } };
  return {
    cells,
    data: { ...data, ratio: { ...ratio }, latencyMs: { oursP50, oursP99, pythonP50, pythonP99 } as Json },
    ratio,
  };
}

export const reference: Benchmark = {
  id: 'reference',
  title: '8. Against the reference (Python SDK desk)',
  async run(context) {
    const levels = context.pick([1, 8, 32], [1, 32]);
    const durationMs = context.pick(2_000, 300);
    const warmupMs = context.pick(1_500, 200);
    const firstWarmupMs = context.pick(5_000, 400);
    const reps = context.pick(3, 1);
    // The package as it ships (dist/), as section 10 loads it: under tsx every closure would also get a
    // `__name` call each time it is made (esbuild's keepNames), a cost no user of the package pays.
    const ours = await startServer('examples/stories/refund-desk/server.ts', ['--http', '--port', '0'], {
      builtPackage: true,
    });
    let python: ServerProcess | undefined;
    try {
      python = await startPythonDesk();
      const servers = { ours, python };
      const calls: ReadonlyArray<readonly [string, Scenario]> = [
        ['asks nothing (ORD-7001, 1 leg)', anyDeskCall(QUIET_CALL)],
        ['full flow (ORD-7002, 3 legs)', anyDeskCall(THREE_LEG_CALL)],
      ];
      const rows: string[][] = [];
      const targets: TargetCheck[] = [];
      const data: Json[] = [];
      for (const [name, scenario] of calls) {
        for (const [side, server] of Object.entries(servers))
          await warmUp(server.url, scenario, firstWarmupMs, `${name}: the ${side} desk does not complete the call`);
        for (const level of levels) {
          const measured = await measureLevel(servers, name, scenario, level, { durationMs, warmupMs, reps });
          context.log(`  ${name}, ${level} client(s): ours / Python ${fmtRatio(measured.ratio)}`);
          rows.push(measured.cells);
          data.push(measured.data);
          const ratio = measured.ratio;
          targets.push(ratioAtLeast(`${name}, ${level} client(s): our desk / Python SDK desk`, ratio, TARGET));
        }
      }
      const memory = await memoryRows(
        [
          ['ours', ours],
          ['Python SDK', python],
        ],
        anyDeskCall(QUIET_CALL),
        { inFlight: IN_FLIGHT, durationMs: context.pick(3_000, 600), log: (line) => context.log(line) },
      );
      return {
        tables: [
          {
            columns: [
              'call',
              'clients',
              'ours calls/s',
              'Python SDK calls/s',
              'ours / Python',
              'ours p50 ms',
              'ours p99 ms',
              'Python p50 ms',
              'Python p99 ms',
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
          'Both desks serve HTTP on loopback, 2026-07-28: ours is examples/stories/refund-desk/server.ts (`serveHttp`, the built package from dist/), the reference is interop/python/mcp_interop/desk_server.py on the Python SDK 2.3.0 (`MCPServer.streamable_http_app()` under uvicorn, python3.11, its default sealed `requestState`).',
          `Load: this process, N workers on keep-alive connections, the same requests to both (answers chosen from each form, since the SDKs name question keys differently); ${durationMs / 1000} s per run after ${firstWarmupMs / 1000} s of warm-up on 8 workers per desk and call, then ${warmupMs / 1000} s per level; ${reps} alternating run(s) per level (ours first, then the reference first, …). Figures are medians; the ratio is the median of per-run-pair ratios.`,
          'The load generator shares the two cores with the server under test, and each server is one process (one event loop each). Latency (p50, p99) is one whole call, median over runs.',
          `Memory: ${IN_FLIGHT} workers on their own connections run the asks-nothing call back to back; RSS (VmRSS) before the run and the highest sampled every 25 ms during it.`,
        ],
        targets,
        data: [...data, ...memory.map((row) => row.data)],
      };
    } finally {
      await Promise.all([ours.stop(), python?.stop()]);
    }
  },
};
