/** A shared session store that failed: the request is answered 503 with the reason, never left hanging. */

/** A shared-store operation of the legacy leg failed. */
export class SessionStoreError extends Error {}

/** Runs a shared-store operation, turning its failure into a {@link SessionStoreError} that says `what` failed. */
export async function viaStore<T>(what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SessionStoreError(`The legacy session store failed to ${what}: ${reason}`, { cause: error });
  }
}
