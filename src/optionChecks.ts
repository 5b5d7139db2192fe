/** The checks options go through at construction, with one wording for every caller: `invalidOption`, `positiveInteger`, `hostnameList`. */
import { McpResolveError } from './errors.js';

/** The unit of a duration option, for {@link IntegerWording.unit}. */
export const MILLISECONDS = 'number of milliseconds';

/** How {@link positiveInteger} words its error beyond `<api>: <option> must be a positive integer … (got X).` */
export interface IntegerWording {
  /** What the integer counts, as in "number of bytes"; shown after "positive integer". */
  readonly unit?: string;
  /** Whether the message ends with "The default is <fallback>." */
  readonly statesDefault?: boolean;
  /** Whether 0 is allowed too (the message then asks for a non-negative integer). */
  readonly zero?: boolean;
}

/**
 * `value`, or `fallback` when it is `undefined`; throws `invalid_options` (data `{ api, option }`)
 * unless it is a positive safe integer (or 0, with `wording.zero`). The message reads
 * `<api>: <option> must be a positive integer[ unit] (got X).[ The default is N.]`
 */
export function positiveInteger(
  api: string,
  option: string,
  value: number | undefined,
  fallback: number,
  wording: IntegerWording = {},
): number {
  if (value === undefined) return fallback;
  const { unit, statesDefault = false, zero = false } = wording;
  if (!Number.isSafeInteger(value) || value < (zero ? 0 : 1)) {
    throw new McpResolveError(
      'invalid_options',
      `${api}: ${option} must be a ${zero ? 'non-negative' : 'positive'} integer${unit === undefined ? '' : ` ${unit}`} (got ${String(value)}).` +
        (statesDefault ? ` The default is ${fallback}.` : ''),
      { data: { api, option } },
    );
  }
  return value;
}

/** A copy of `value` when it is a non-empty array of hostnames, `undefined` when absent; else `invalid_options`. */
export function hostnameList(api: string, name: string, value: string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.some((entry) => typeof entry !== 'string' || entry === '')) {
    throw invalidOption(
      api,
      name,
      `must be a non-empty array of hostnames (got ${JSON.stringify(value)})`,
      "List hostnames without port, for example ['localhost', 'mcp.example.com'].",
    );
  }
  return [...value];
}

/** `invalid_options` for `api`'s `option`; the message reads `<api>: <option> <problem>. <fix>`. */
export function invalidOption(api: string, option: string, problem: string, fix: string): McpResolveError {
  return new McpResolveError('invalid_options', `${api}: ${option} ${problem}. ${fix}`, { data: { api, option } });
}

/**
 * `backend` when it is a page backend, else the error naming `option`: a Promise (an un-awaited
 * `createRedisAnswerPageBackend()`) or anything without the backend's methods.
 */
export function checkedPageBackend<T extends object>(api: string, option: string, backend: T): T {
  const methods = ['open', 'page', 'answer', 'take'] as const;
  if (typeof (backend as { then?: unknown }).then === 'function') {
    throw invalidOption(api, option, 'is a Promise', 'Await createRedisAnswerPageBackend() before passing its result.');
  }
  const missing = methods.filter((name) => typeof (backend as Record<string, unknown>)[name] !== 'function');
  if (missing.length > 0) {
    throw invalidOption(
      api,
      option,
      `has no ${missing.join(', ')} method`,
      'Pass createMemoryAnswerPageBackend() or createRedisAnswerPageBackend().',
    );
  }
  return backend;
}
