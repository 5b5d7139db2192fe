/**
 * 5. Throughput: concurrent clients running the refund desk's 3-leg modern call over HTTP
 * against the story server, against the raw-SDK desk hosted the same way, and against the floor,
 * a bare `node:http` JSON echo. Each server is its own process; the load generator is this one.
 */
import type { Benchmark, Json, TargetCheck } from '../lib/registry.js';
import type { LoadResult, Scenario } from '../lib/load.js';
import { runLoad, warmUp } from '../lib/load.js';
import type { ServerProcess } from '../lib/processes.js';
import { startServer } from '../lib/processes.js';
import { fmt, fmtRatio, ratioAtLeast, summarize } from '../lib/stats.js';
import type { Summary } from '../lib/stats.js';
import { deskCall, echoCall } from '../fixtures/deskHttp.js';

const LEVELS = [1, 8, 64] as const;
const TARGET = 0.95;

interface Target {
  readonly name: string;
  readonly server: ServerProcess;
  readonly scenario: Scenario;
}

const range = (summary: Summary, digits = 3) =>
  summary.n <= 1
    ? fmt(summary.median, digits)
    : `${fmt(summary.median, digits)} (${fmt(summary.min, digits)}–${fmt(summary.max, digits)})`;

export const throughput: Benchmark = {
  id: 'throughput',
  title: '5. Throughput',
  async run(context) {
    const durationMs = context.pick(2_500, 400);
    const warmupMs = context.pick(1_000, 200);
    /** A cold server process needs thousands of requests before its JIT settles. */
    const firstWarmupMs = context.pick(6_000, 500);
    const reps = context.pick(4, 1);
    const servers = await Promise.allSettled([
      startServer('examples/stories/refund-desk/server.ts', ['--http', '--port', '0'], { builtPackage: true }),
      startServer('bench/servers/raw-desk.ts', ['--port', '0'], { builtPackage: true }),
      startServer('bench/servers/echo.ts', ['--port', '0']),
    ]);
    const started = servers.flatMap((server) => (server.status === 'fulfilled' ? [server.value] : []));
    try {
      const [story, raw, echo] = servers.map((server) => {
        if (server.status === 'rejected') throw server.reason;
        return server.value;
      });
      if (story === undefined || raw === undefined || echo === undefined) throw new Error('a server did not start');
      const library: Target = { name: 'mcp-resolve (story server)', server: story, scenario: deskCall };
      const sdk: Target = { name: 'raw SDK desk', server: raw, scenario: deskCall };
      // The floor sends the same bodies, with states as long as the desk's.
      const floor: Target = { name: 'node:http JSON echo (floor)', server: echo, scenario: echoCall([136, 298]) };
      for (const target of [library, sdk])
        await warmUp(
          target.server.url,
          target.scenario,
          firstWarmupMs,
          `${target.name}: the 3-leg call does not complete`,
        );
      await runLoad(floor.server.url, floor.scenario, 8, firstWarmupMs);

      const rows: string[][] = [];
      const targets: TargetCheck[] = [];
      const data: Json[] = [];
      for (const level of LEVELS) {
        for (const target of [library, sdk, floor]) await runLoad(target.server.url, target.scenario, level, warmupMs);
        const results = new Map<Target, LoadResult[]>([
          [library, []],
          [sdk, []],
          [floor, []],
        ]);
        const ratios: number[] = [];
        for (let rep = 0; rep < reps; rep++) {
          const order = rep % 2 === 0 ? [library, sdk] : [sdk, library];
          const measured = new Map<Target, LoadResult>();
          for (const target of order) {
            const result = await runLoad(target.server.url, target.scenario, level, durationMs);
            measured.set(target, result);
            results.get(target)?.push(result);
          }
          ratios.push((measured.get(library)?.callsPerSecond ?? 0) / (measured.get(sdk)?.callsPerSecond ?? Number.NaN));
          results.get(floor)?.push(await runLoad(floor.server.url, floor.scenario, level, durationMs));
        }
        const ratio = summarize(ratios);
        for (const target of [library, sdk, floor]) {
          const runs = results.get(target) ?? [];
          const rate = summarize(runs.map((run) => run.callsPerSecond));
          const p50 = summarize(runs.map((run) => run.p50));
          const p99 = summarize(runs.map((run) => run.p99));
          const errors = runs.reduce((sum, run) => sum + run.errors, 0);
          context.log(
            `  ${level} client(s), ${target.name}: ${fmt(rate.median)} calls/s, p50 ${fmt(p50.median)} ms, p99 ${fmt(p99.median)} ms`,
          );
          rows.push([
            String(level),
            target.name,
            range(rate),
            range(p50),
            range(p99),
            String(errors),
            target === library ? fmtRatio(ratio) : '',
          ]);
          data.push({
            concurrency: level,
            server: target.name,
            callsPerSecond: { ...rate },
            p50Ms: { ...p50 },
            p99Ms: { ...p99 },
            errors,
            ...(target === library && { ratioToRawSdk: { ...ratio } }),
          });
        }
        targets.push(ratioAtLeast(`HTTP throughput vs raw SDK, ${level} client(s)`, ratio, TARGET));
      }
      return {
        tables: [
          {
            columns: [
              'clients',
              'server',
              'calls/s',
              'p50 ms per call',
              'p99 ms per call',
              'failed calls',
              'mcp-resolve / raw SDK',
            ],
            rows,
          },
        ],
        notes: [
          'A call is the whole modern exchange: `tools/call` → `input_required` (scope) → retry with the answer and the echoed `requestState` → `input_required` (restock) → retry → receipt (checked). The floor sends the same three bodies to an echo. Latency is per call (3 requests).',
          `Load: this process, N workers on keep-alive loopback connections sending canned requests (the SDK client's exact headers and \`_meta\`), ${durationMs / 1000} s per run after ${firstWarmupMs / 1000} s of warm-up per server, then ${warmupMs / 1000} s per server and level; mcp-resolve and raw SDK runs alternate, ${reps} run(s) each. Figures: median (min–max) over runs; the ratio is the median of per-run-pair ratios of calls/s.`,
          "Each server is a separate Node process hosted the same way, by `serveHttp` from the built package (dist/), both eras on one URL. The load generator shares the machine's cores with the server under test. Legacy (2025-11-25) HTTP is not load-tested here: its questions are pushes on a sessionful SSE stream.",
        ],
        targets,
        data,
      };
    } finally {
      await Promise.all(started.map((server) => server.stop()));
    }
  },
};
