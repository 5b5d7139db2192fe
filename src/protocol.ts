/**
 * What this release knows of the MCP protocol itself: its two eras and the revision it speaks in
 * each, the one test of a request's era, and the methods whose requests run for several rounds.
 */

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

/** Every multi-round method, in the order the spec lists them. */
export const MULTI_ROUND_METHODS = ['tools/call', 'prompts/get', 'resources/read'] as const;

/** A method whose requests can run for several rounds. */
export type MultiRoundMethod = (typeof MULTI_ROUND_METHODS)[number];

const METHOD_SET: ReadonlySet<unknown> = new Set(MULTI_ROUND_METHODS);

/** Whether `method` is a multi-round method. */
export function isMultiRoundMethod(method: unknown): method is MultiRoundMethod {
  return METHOD_SET.has(method);
}
