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
