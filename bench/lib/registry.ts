/**
 * What a benchmark is and what it reports. `bench/suites/index.ts` lists the benchmarks the
 * runner executes, in order; a new measurement (as section 6, held state, was) is one more entry
 * there.
 */

/** How hard a run tries: `quick` is the CI smoke run (the whole suite in well under a minute). */
export interface BenchSettings {
  readonly quick: boolean;
}

/** What a benchmark receives from the runner. */
export interface BenchContext extends BenchSettings {
  /** Progress lines (stderr), so stdout carries only the final table. */
  log(line: string): void;
  /** `full` on a full run, `quick` on a smoke run. */
  pick<T>(full: T, quick: T): T;
}

/** A goal the issue states, reported against (never a pass/fail test). */
export interface TargetCheck {
  readonly what: string;
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
}

/** A markdown table: an optional caption, a header row and rows of cells. */
export interface Table {
  readonly caption?: string;
  readonly columns: readonly string[];
  readonly rows: ReadonlyArray<readonly string[]>;
}

/** JSON-serialisable data kept next to the table for tooling. */
export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

/** One section of the report. */
export interface SectionResult {
  readonly tables: readonly Table[];
  /** Sentences under the table: how it was measured, caveats. */
  readonly notes: readonly string[];
  readonly targets: readonly TargetCheck[];
  readonly data: Json;
}

/** One benchmark section. */
export interface Benchmark {
  /** Short id used by `--only` (e.g. `overhead`). */
  readonly id: string;
  /** The heading in the report (e.g. `1. Per-call overhead`). */
  readonly title: string;
  run(context: BenchContext): Promise<SectionResult>;
}
