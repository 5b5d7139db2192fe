/**
 * `withDeadline`: a Redis call that rejects when Redis has not answered in time; `scriptDeadline`:
 * the deadline a script run under it is told.
 */
/**
 * Settles with `operation`, or rejects after `ms` when Redis has not answered. node-redis times out
 * only commands still queued; a command already written to a Redis that stopped answering would
 * wait for the connection to reset, so every call this entry makes carries its own deadline.
 */
export async function withDeadline<T>(operation: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([operation, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** How far before the caller gives up a script's deadline falls, in ms (see {@link scriptDeadline}). */
const DEADLINE_MARGIN_MS = 2;

/**
 * The deadline (ms since the epoch) to hand a script run under {@link withDeadline}`(…, ms)`, for it
 * to refuse once Redis's clock is past it. A timer may fire a millisecond early by this clock, so
 * the deadline falls just before the caller can give up: Redis never applies a script whose caller
 * has already reported it failed.
 */
export function scriptDeadline(ms: number): number {
  return Date.now() + ms - DEADLINE_MARGIN_MS;
}
