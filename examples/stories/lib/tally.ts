/** Counting a story's checks: one `ok`/`FAIL` line each, and the closing `N passed, M failed` line. */

/** What a story run proved. */
export interface StoryReport {
  readonly passed: number;
  readonly failed: number;
  /** The closing line, `<label>: N passed, M failed`. */
  readonly summary: string;
}

/** A running count of a story's checks, logging each as it is made. */
export interface Tally {
  /** Counts one check and logs `ok` or `FAIL` with `what`. */
  readonly check: (ok: boolean, what: string) => void;
  /** Counts an error that ended the run early as one failure and logs its message. */
  readonly fail: (error: unknown) => void;
  /** Logs and returns the closing `<label>: N passed, M failed` line with the counts. */
  readonly report: (label: string) => StoryReport;
}

/** Starts a tally that writes its lines to `log`. */
export function createTally(log: (line: string) => void): Tally {
  let passed = 0;
  let failed = 0;
  return {
    check: (ok, what) => {
      if (ok) passed += 1;
      else failed += 1;
      log(`    ${ok ? 'ok  ' : 'FAIL'} ${what}`);
    },
    fail: (error) => {
      failed += 1;
      log(`    FAIL ${error instanceof Error ? error.message : String(error)}`);
    },
    report: (label) => {
      const summary = `${label}: ${passed} passed, ${failed} failed`;
      log(summary);
      return { passed, failed, summary };
    },
  };
}
