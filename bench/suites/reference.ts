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
import type { Scenario } from '../lib/load.js';
import { runLoad } from '../lib/load.js';
import type { ServerProcess } from '../lib/processes.js';
import { startServer } from '../lib/processes.js';
import type { Benchmark, Json, TargetCheck } from '../lib/registry.js';
import { fmt, fmtRatio, ratioAtLeast, summarize } from '../lib/stats.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TARGET = 3;

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

export const reference: Benchmark = {
  id: 'reference',
  title: '8. Against the reference (Python SDK desk)',
  async run(context) {
    const levels = context.pick([1, 8, 32], [1]);
    const durationMs = context.pick(2_000, 300);
    const warmupMs = context.pick(1_500, 200);
    const reps = context.pick(3, 1);
    const ours = await startServer('examples/stories/refund-desk/server.ts', ['--http', '--port', '0']);
    let python: ServerProcess | undefined;
    try {
      python = await startPythonDesk();
      const servers = { ours, python };
      const calls: ReadonlyArray<readonly [string, Scenario]> = [
        ['asks nothing (ORD-7001, 1 leg)', anyDeskCall(QUIET_CALL)],
        ['full flow (ORD-7002, 3 legs)', anyDeskCall(THREE_LEG_CALL)],
      ];
      for (const [name, scenario] of calls) {
        for (const server of Object.values(servers)) {
          const check = await runLoad(server.url, scenario, 1, 1);
          if (check.errors > 0 || check.calls === 0) throw new Error(`${name}: a desk does not complete the call`);
        }
      }
      const rows: string[][] = [];
      const targets: TargetCheck[] = [];
      const data: Json[] = [];
      for (const [name, scenario] of calls) {
        for (const level of levels) {
          for (const server of Object.values(servers)) await runLoad(server.url, scenario, level, warmupMs);
          const rates = { ours: [] as number[], python: [] as number[] };
          const ratios: number[] = [];
          for (let rep = 0; rep < reps; rep++) {
            const order = rep % 2 === 0 ? (['ours', 'python'] as const) : (['python', 'ours'] as const);
            const measured = { ours: 0, python: 0 };
            for (const side of order) {
              const result = await runLoad(servers[side].url, scenario, level, durationMs);
              if (result.errors > 0) throw new Error(`${name}, ${side} desk: ${result.errors} failed call(s)`);
              measured[side] = result.callsPerSecond;
              rates[side].push(result.callsPerSecond);
            }
            ratios.push(measured.ours / measured.python);
          }
          const ratio = summarize(ratios);
          const oursRate = summarize(rates.ours);
          const pythonRate = summarize(rates.python);
          context.log(
            `  ${name}, ${level} client(s): ours ${fmt(oursRate.median)}/s, python ${fmt(pythonRate.median)}/s`,
          );
          rows.push([name, String(level), fmt(oursRate.median), fmt(pythonRate.median), fmtRatio(ratio)]);
          data.push({
            call: name,
            concurrency: level,
            ours: { ...oursRate },
            python: { ...pythonRate },
            ratio: { ...ratio },
          });
          targets.push(ratioAtLeast(`${name}, ${level} client(s): our desk / Python SDK desk`, ratio, TARGET));
        }
      }
      return {
        tables: [
          {
            columns: ['call', 'clients', 'ours calls/s', 'Python SDK calls/s', 'ours / Python'],
            rows,
          },
        ],
        notes: [
          'Both desks serve HTTP on loopback, 2026-07-28: ours is examples/stories/refund-desk/server.ts (`serveHttp`, Node via tsx), the reference is interop/python/mcp_interop/desk_server.py on the Python SDK 2.3.0 (`MCPServer.streamable_http_app()` under uvicorn, python3.11, its default sealed `requestState`).',
          `Load: this process, N workers on keep-alive connections, the same requests to both (answers chosen from each form, since the SDKs name question keys differently); ${durationMs / 1000} s per run after ${warmupMs / 1000} s warm-up, ${reps} alternating run(s) per level (ours first, then the reference first, …). Figures are medians; the ratio is the median of per-run-pair ratios.`,
          'The load generator shares the two cores with the server under test, and each server is one process (one event loop each).',
        ],
        targets,
        data,
      };
    } finally {
      await Promise.all([ours.stop(), python?.stop()]);
    }
  },
};
