/** Checking numeric options once, with one wording for every caller. */
import type { McpResolveErrorData } from './errors.js';
import { McpResolveError } from './errors.js';

/**
 * `value`, or `fallback` when it is `undefined`; throws `invalid_options` (with `option` as its
 * data) naming `what` (and the `unit`, as in "number of milliseconds") unless it is a positive
 * safe integer.
 */
export function positiveInteger(
  what: string,
  option: McpResolveErrorData['invalid_options'],
  value: number | undefined,
  fallback: number,
  unit?: string,
): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new McpResolveError(
      'invalid_options',
      `${what} must be a positive integer${unit === undefined ? '' : ` ${unit}`} (got ${String(value)}).`,
      { data: option },
    );
  }
  return value;
}
