/** `withDeadline`: a Redis call that rejects when Redis has not answered in time. */
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
