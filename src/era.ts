/** The protocol era of a request: `modern` is 2026-07-28 or later, `legacy` is 2025-11-25 or earlier. */
export type Era = 'modern' | 'legacy';

/** The modern era's protocol revision (the first, and the one this release speaks). */
export const MODERN_REVISION = '2026-07-28';

/** The legacy era's protocol revision this release speaks. */
export const LEGACY_REVISION = '2025-11-25';

/**
 * Whether an `MCP-Protocol-Version` value names a modern revision: revisions are dates, so every one
 * from {@link MODERN_REVISION} on sorts at or after it. The one "is this modern?" test of the hosting.
 */
export function isModernRevision(version: string | undefined): boolean {
  return version !== undefined && version.trim() >= MODERN_REVISION;
}
