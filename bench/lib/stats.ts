/** Summaries of repeated measurements: median with quartiles and range, and their rendering. */
import type { TargetCheck } from './registry.js';

/** A figure measured several times: the median and its spread. */
export interface Summary {
  readonly median: number;
  /** First and third quartiles (linear interpolation). */
  readonly q1: number;
  readonly q3: number;
  readonly min: number;
  readonly max: number;
  /** How many measurements. */
  readonly n: number;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below] ?? Number.NaN;
  const high = sorted[above] ?? Number.NaN;
  return low + (high - low) * (position - below);
}

/** Median, quartiles and range of `values` (NaN everywhere when empty). */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    n: sorted.length,
  };
}

/** The `q`-quantile (0..1) of `values`. */
export function percentile(values: readonly number[], q: number): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    q,
  );
}

/** A number with `digits` significant digits at most, no exponent for the magnitudes benchmarks produce. */
export function fmt(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return '—';
  if (value === 0) return '0';
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return value.toLocaleString('en-US', { maximumFractionDigits: decimals, minimumFractionDigits: 0 });
}

/** `median (q1–q3)`: the median and its interquartile range. */
export function fmtSummary(summary: Summary, digits = 3): string {
  if (summary.n <= 1) return fmt(summary.median, digits);
  return `${fmt(summary.median, digits)} (${fmt(summary.q1, digits)}–${fmt(summary.q3, digits)})`;
}

/** A ratio as `1.03×`, with its interquartile range. */
export function fmtRatio(summary: Summary): string {
  if (summary.n <= 1) return `${summary.median.toFixed(2)}×`;
  return `${summary.median.toFixed(2)}× (${summary.q1.toFixed(2)}–${summary.q3.toFixed(2)})`;
}

/** A "ratio of at least `minimum`" target, reported against the median `ratio`. */
export function ratioAtLeast(what: string, ratio: Summary, minimum: number): TargetCheck {
  return {
    what,
    target: `≥ ${minimum.toFixed(2)}×`,
    measured: `${ratio.median.toFixed(2)}×`,
    met: ratio.median >= minimum,
  };
}
