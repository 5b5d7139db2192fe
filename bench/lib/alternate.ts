/**
 * Paired measurement of two sides in one process: warm both up, then time batches alternately
 * (A B, B A, A B, …, so neither side always runs first) and report each side's time per
 * operation and the per-pair ratio A / B, in wall-clock time and in this process's CPU time.
 * CPU time is the steadier figure on a shared machine: time spent descheduled is not counted.
 */
import { summarize } from './stats.js';
import type { Summary } from './stats.js';

/** How many batches of how many operations. */
export interface Plan {
  /** Operations per side before measuring (JIT, caches, connection set-up). */
  readonly warmup: number;
  /** Measured batch pairs. */
  readonly runs: number;
  /** Operations per batch; the batch's time per operation is one sample. */
  readonly batch: number;
}

/** Per-operation microseconds of one side. */
export interface SideTimes {
  readonly wall: Summary;
  readonly cpu: Summary;
}

/** Both sides and the ratio A / B (one sample per pair of batches). */
export interface Paired {
  readonly a: SideTimes;
  readonly b: SideTimes;
  readonly ratio: Summary;
  readonly cpuRatio: Summary;
}

/** Wall-clock and CPU microseconds per operation of one batch. */
export interface BatchTime {
  readonly wall: number;
  readonly cpu: number;
}

/** Runs `operation` `count` times sequentially. */
export async function timeBatch(operation: () => Promise<unknown>, count: number): Promise<BatchTime> {
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let index = 0; index < count; index++) await operation();
  const wall = Number(process.hrtime.bigint() - start) / 1_000;
  const cpu = process.cpuUsage(cpuStart);
  return { wall: wall / count, cpu: (cpu.user + cpu.system) / count };
}

/** Measures `a` against `b` with alternating batches. */
export async function alternate(a: () => Promise<unknown>, b: () => Promise<unknown>, plan: Plan): Promise<Paired> {
  for (let index = 0; index < plan.warmup; index++) {
    await a();
    await b();
  }
  const aTimes: BatchTime[] = [];
  const bTimes: BatchTime[] = [];
  for (let run = 0; run < plan.runs; run++) {
    if (run % 2 === 0) {
      aTimes.push(await timeBatch(a, plan.batch));
      bTimes.push(await timeBatch(b, plan.batch));
    } else {
      bTimes.push(await timeBatch(b, plan.batch));
      aTimes.push(await timeBatch(a, plan.batch));
    }
  }
  const side = (times: readonly BatchTime[]): SideTimes => ({
    wall: summarize(times.map((time) => time.wall)),
    cpu: summarize(times.map((time) => time.cpu)),
  });
  const ratios = (pick: (time: BatchTime) => number) =>
    summarize(aTimes.map((time, index) => pick(time) / pick(bTimes[index] ?? time)));
  return {
    a: side(aTimes),
    b: side(bTimes),
    ratio: ratios((time) => time.wall),
    cpuRatio: ratios((time) => time.cpu),
  };
}
