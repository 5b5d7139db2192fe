/**
 * Rate-limited log lines for refusals a client causes (rejected tokens, abandoned calls): a client
 * that sends 10,000 bad requests must not write 10,000 lines. Within each interval the first lines
 * of a kind are written; the rest are counted and summarised in one line ("N more like this in the
 * last 10 s"), so nothing is ever silenced.
 */

/** How often the summary of suppressed lines is written, in ms. */
export const LOG_INTERVAL_MS = 10_000;

/** How many lines of one kind are written per interval before they are counted instead. */
export const LOG_LINES_PER_INTERVAL = 5;

/** Options of {@link createLogLimiter} (tests pass a clock and a scheduler). */
export interface LogLimiterOptions {
  readonly intervalMs?: number;
  readonly linesPerInterval?: number;
  readonly now?: () => number;
  /** Schedules the summary at the end of an interval in which lines were counted (default: an unref'd `setTimeout`). */
  readonly schedule?: (run: () => void, delayMs: number) => void;
}

/**
 * Writes `line` under `kind`, or counts it when the interval's lines of that kind are spent; `about`
 * (what the line is about, such as a request's method) reaches the sink with the line.
 */
export type LimitedLog = (kind: string, line: string, about?: string) => void;

interface Window {
  startedAt: number;
  written: number;
  suppressed: number;
  scheduled: boolean;
}

function unrefTimeout(run: () => void, delayMs: number): void {
  const timer = setTimeout(run, delayMs) as { unref?: () => void };
  timer.unref?.();
}

/**
 * A limiter writing to `write`. Each `kind` (a short description of what was refused) has its own
 * window; the summary names the kind: `mcp-resolve: 9995 more like this in the last 10 s: <kind>`.
 */
export function createLogLimiter(
  write: (line: string, about?: string) => void,
  options: LogLimiterOptions = {},
): LimitedLog {
  const intervalMs = options.intervalMs ?? LOG_INTERVAL_MS;
  const perInterval = options.linesPerInterval ?? LOG_LINES_PER_INTERVAL;
  const now = options.now ?? Date.now;
  const schedule = options.schedule ?? unrefTimeout;
  const windows = new Map<string, Window>();

  const flush = (kind: string, window: Window): void => {
    if (window.suppressed === 0) return;
    const seconds = Math.max(1, Math.round(intervalMs / 1000));
    const count = window.suppressed;
    window.suppressed = 0;
    quietly(() => write(`mcp-resolve: ${count} more like this in the last ${seconds} s: ${kind}`));
  };

  return (kind, line, about) => {
    const at = now();
    let window = windows.get(kind);
    if (window !== undefined && at - window.startedAt >= intervalMs) {
      flush(kind, window);
      window = undefined;
    }
    if (window === undefined) {
      window = { startedAt: at, written: 0, suppressed: 0, scheduled: false };
      windows.set(kind, window);
    }
    if (window.written < perInterval) {
      window.written++;
      quietly(() => write(line, about));
      return;
    }
    window.suppressed++;
    if (window.scheduled) return;
    window.scheduled = true;
    const current = window;
    schedule(
      () => {
        current.scheduled = false;
        flush(kind, current);
        if (windows.get(kind) === current) windows.delete(kind);
      },
      Math.max(0, current.startedAt + intervalMs - at),
    );
  };
}

/** Logging never changes what the client sees: a throwing sink is ignored. */
function quietly(run: () => void): void {
  try {
    run();
  } catch {
    // A broken logger must not turn a refusal into a different error.
  }
}
