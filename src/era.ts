/** The protocol era of a request: `modern` is 2026-07-28 or later, `legacy` is 2025-11-25 or earlier. */
export type Era = 'modern' | 'legacy';
