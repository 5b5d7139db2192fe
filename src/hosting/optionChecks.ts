/** The checks hosting options go through at construction: `invalid`, `positiveInteger`, `hostnameList`. */
import { McpResolveError } from '../errors.js';

/**
 * `value` (or `fallback` when absent) when it is a positive safe integer; else `invalid_options`
 * naming `name` (and the `unit`, as in "number of bytes").
 */
export function positiveInteger(
  api: string,
  name: string,
  value: number | undefined,
  fallback: number,
  unit?: string,
): number {
  const resolved = value ?? fallback;
  if (!Number.isSafeInteger(resolved) || resolved < 1) {
    throw invalid(
      api,
      name,
      `must be a positive integer${unit === undefined ? '' : ` ${unit}`} (got ${String(resolved)})`,
      `The default is ${fallback}.`,
    );
  }
  return resolved;
}

/** A copy of `value` when it is a non-empty array of hostnames, `undefined` when absent; else `invalid_options`. */
export function hostnameList(api: string, name: string, value: string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.some((entry) => typeof entry !== 'string' || entry === '')) {
    throw invalid(
      api,
      name,
      `must be a non-empty array of hostnames (got ${JSON.stringify(value)})`,
      "List hostnames without port, for example ['localhost', 'mcp.example.com'].",
    );
  }
  return [...value];
}

/** `invalid_options` for `api`'s `option`; the message reads `<api>: <option> <problem>. <fix>`. */
export function invalid(api: string, option: string, problem: string, fix: string): McpResolveError {
  return new McpResolveError('invalid_options', `${api}: ${option} ${problem}. ${fix}`, { data: { api, option } });
}
