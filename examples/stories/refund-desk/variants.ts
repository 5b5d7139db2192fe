/** The refund desk's two variants, as the clients name and start them. */

/**
 * Which desk: `seed`, the contract's (free-text SKU, shared/spec/refund-desk.md), or `guided`, the
 * variant whose SKU is a pick-list and whose bad answers are asked again (guided.ts).
 */
export type DeskVariant = 'seed' | 'guided';

/** What `server.ts` is started with, per desk. */
export const SERVER_ARGS: Record<DeskVariant, readonly string[]> = { seed: [], guided: ['--guided'] };
