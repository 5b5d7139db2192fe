/**
 * Backend failures of the legacy leg (the shared session store, the fleet relay): the request is
 * answered, never left hanging, and the client reads only the masked text with a ref; the cause
 * (the store client's own words) goes to the server's error sink under the same ref.
 */
import { maskedMessage, newRef } from '../../../round/masking.js';

/** A shared-store operation of the legacy leg failed; its message is for the operator only. */
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

/**
 * Reports a backend failure (`error`, while the leg tried to `what`) under a fresh ref and returns
 * the masked text the client reads instead of its cause.
 */
export function maskBackendFailure(what: string, error: unknown, report: (error: unknown) => void): string {
  const ref = newRef();
  const reason = error instanceof Error ? error.message : String(error);
  const cause = error instanceof SessionStoreError ? reason : `The legacy session backend failed to ${what}: ${reason}`;
  report(new Error(`${cause} [ref ${ref}]`, { cause: error }));
  return maskedMessage(ref);
}
