/** Settings shared by `npm run chaos` and its desk instances. */

/** How long the audit task's body runs, in ms. */
export const AUDIT_BODY_MS = 4_000;
/** The task lease of the chaos fleet, in ms: a dead body is resumed on another instance this long after its last heartbeat. */
export const CHAOS_LEASE_MS = 3_000;
