/**
 * A server process's resident memory while many calls are in flight: its RSS read from
 * `/proc/<pid>/status` (Linux) before a run and sampled during it, so the bench can say what
 * 1,000 concurrent calls cost in memory beside what they cost in time. Elsewhere it reads
 * `undefined` and the table says n/a.
 */
import { readFileSync } from 'node:fs';

import type { LoadResult, Scenario } from './load.js';
import { runLoad } from './load.js';
import type { ServerProcess } from './processes.js';
import type { Json } from './registry.js';
import { fmt } from './stats.js';

/** Resident set size of process `pid` in MiB; `undefined` without `/proc`. */
export function rssMiBOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

/** What a server's memory did under a run of many concurrent calls. */
export interface InFlightMemory {
  readonly load: LoadResult;
  /** RSS just before the run, MiB. */
  readonly idleMiB: number | undefined;
  /** Highest RSS sampled during the run, MiB. */
  readonly peakMiB: number | undefined;
}

const SAMPLE_EVERY_MS = 25;

/** Runs `scenario` on `inFlight` concurrent connections for `durationMs`, sampling the server's RSS. */
export async function memoryUnderLoad(
  server: ServerProcess,
  scenario: Scenario,
  inFlight: number,
  durationMs: number,
): Promise<InFlightMemory> {
  const idleMiB = rssMiBOf(server.pid);
  let peakMiB = idleMiB;
  const sample = () => {
    const now = rssMiBOf(server.pid);
    if (now !== undefined && (peakMiB === undefined || now > peakMiB)) peakMiB = now;
  };
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  try {
    const load = await runLoad(server.url, scenario, inFlight, durationMs);
    sample();
    return { load, idleMiB, peakMiB };
  } finally {
    clearInterval(timer);
  }
}

/** The columns of {@link memoryRows}' table. */
export const MEMORY_COLUMNS = [
  'server',
  'in flight',
  'RSS idle MiB',
  'RSS peak MiB',
  'calls/s',
  'p50 ms',
  'p99 ms',
  'failed',
];

const mib = (value: number | undefined): string => (value === undefined ? 'n/a' : fmt(value));

/** One table row (and its JSON) per server: its memory with `inFlight` calls of `scenario` in flight, servers one after another. */
export async function memoryRows(
  servers: ReadonlyArray<readonly [string, ServerProcess]>,
  scenario: Scenario,
  options: { readonly inFlight: number; readonly durationMs: number; readonly log: (line: string) => void },
): Promise<Array<{ cells: string[]; data: Json }>> {
  const rows: Array<{ cells: string[]; data: Json }> = [];
  for (const [name, server] of servers) {
    const { load, idleMiB, peakMiB } = await memoryUnderLoad(server, scenario, options.inFlight, options.durationMs);
    options.log(`  ${options.inFlight} in flight, ${name}: RSS ${mib(idleMiB)} → ${mib(peakMiB)} MiB`);
    const cells = [name, String(options.inFlight), mib(idleMiB), mib(peakMiB), fmt(load.callsPerSecond)];
    cells.push(fmt(load.p50), fmt(load.p99), String(load.errors));
    const data = { server: name, inFlight: options.inFlight, idleMiB: idleMiB ?? null, peakMiB: peakMiB ?? null };
    rows.push({ cells, data: { ...data, callsPerSecond: load.callsPerSecond, p50Ms: load.p50, p99Ms: load.p99 } });
  }
  return rows;
}
