/** The machine a run happened on, as the report states it. */
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

/** What the report says about the machine. */
export interface Machine {
  readonly node: string;
  readonly cpuModel: string;
  /** `nproc`: the CPUs this process may use. */
  readonly cpus: number;
  readonly memoryGiB: number;
  readonly platform: string;
  /** 1-minute load average when the run started (other work on the machine skews every figure). */
  readonly loadAverageAtStart: number;
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1]) return match[1].trim();
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return cpus()[0]?.model ?? 'unknown';
}

/** Describes this machine now. */
export function describeMachine(): Machine {
  return {
    node: process.version,
    cpuModel: cpuModel(),
    cpus: availableParallelism(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    platform: `${process.platform} ${process.arch}`,
    loadAverageAtStart: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

/** One line for the report header. */
export function machineLine(machine: Machine): string {
  return `Node ${machine.node}, ${machine.cpus} CPU(s) (${machine.cpuModel}), ${machine.memoryGiB} GiB, ${machine.platform}, load average ${machine.loadAverageAtStart} at start`;
}

/**
 * Exits with status 2 when this Node is older than the package's `engines` allow: figures from a
 * line the package does not support describe nothing it ships on. (Node 20, for one, keeps every
 * `AbortSignal` alive through young-generation collections, so each request's signals and what
 * they reach are promoted and scavenges take milliseconds; Node 22 and 24 do not.)
 */
export function requireSupportedNode(tool: string): void {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    engines?: { node?: string };
  };
  const range = manifest.engines?.node ?? '';
  const minimum = Number(/>=\s*(\d+)/.exec(range)?.[1] ?? 0);
  if (Number(process.versions.node.split('.')[0]) >= minimum) return;
  console.error(
    `${tool}: Node ${process.version} is older than the package supports (engines: node ${range}). Run it on a supported line (CI uses Node 24).`,
  );
  process.exit(2);
}
