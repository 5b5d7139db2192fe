/**
 * A question's `pattern`s, matched in linear time. JavaScript's own `RegExp` backtracks: a pattern
 * such as `^(a+)+$` takes exponential time on a 30-character answer and blocks the event loop for
 * every other caller. Every pattern the library runs is compiled by RE2JS (a port of RE2, linear in
 * the input, no backtracking), and a pattern RE2 cannot read (backreferences, lookaround) is refused
 * when its question is first rendered, with the reason, instead of being run by a backtracking engine.
 */
import { RE2JS } from 're2js';

import { isRecord } from '../ownKeys.js';

/** Compiled patterns, by source; bounded: the oldest is forgotten first. */
const compiled = new Map<string, RE2JS>();
const MAX_COMPILED = 512;

function compile(source: string): RE2JS {
  const known = compiled.get(source);
  if (known !== undefined) return known;
  const pattern = RE2JS.compile(source);
  if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
  compiled.set(source, pattern);
  return pattern;
}

/** Why RE2 cannot match `source` in linear time (its own words), or `undefined` when it can. */
export function patternProblem(source: string): string | undefined {
  try {
    compile(source);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Whether `value` matches `source` as JSON Schema reads a `pattern` (found anywhere in the value),
 * in time linear in the value; a pattern RE2 cannot read matches nothing.
 */
export function matchesPattern(source: string, value: string): boolean {
  try {
    return compile(source).test(value);
  } catch {
    return false;
  }
}

/** The `pattern` of each property of a flat form schema that has one, by property name. */
export function patternsOf(requestedSchema: unknown): Array<readonly [name: string, pattern: string]> {
  if (!isRecord(requestedSchema) || !isRecord(requestedSchema.properties)) return [];
  return Object.entries(requestedSchema.properties).flatMap(([name, property]) =>
    isRecord(property) && typeof property.pattern === 'string' ? [[name, property.pattern] as const] : [],
  );
}

/**
 * The properties of `content` whose string value does not match its field's pattern in
 * `requestedSchema` (checked in linear time, before any validator of the author's runs its own
 * regular expression on the value).
 */
export function patternMisses(requestedSchema: unknown, content: Readonly<Record<string, unknown>>): string[] {
  return patternsOf(requestedSchema).flatMap(([name, pattern]) => {
    const value = Object.hasOwn(content, name) ? content[name] : undefined;
    return typeof value === 'string' && !matchesPattern(pattern, value) ? [name] : [];
  });
}
