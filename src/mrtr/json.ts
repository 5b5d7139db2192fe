/** State as JSON: parsing what a wrapper sealed last round, and recording values the same on the round that made them and on replay. */
import type { z } from 'zod';

import { McpResolveError, ToolError } from '../errors.js';
import { Ledger } from '../questions/ledger.js';
import { roundServicesOf, type ToolContext } from '../context.js';

/** Parses the plaintext of a round's state against `schema`: `undefined` when it is not JSON of that shape. */
export function parseState<T>(plaintext: unknown, schema: z.ZodType<T>): T | undefined {
  if (typeof plaintext !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext);
  } catch {
    return undefined;
  }
  const result = schema.safeParse(parsed);
  return result.success ? result.data : undefined;
}

/**
 * Returns `value` as it will read back from state (a JSON round trip, `undefined` kept), or throws
 * `invalid_usage` naming `what` (and `api`, its data) when it has no JSON form (a BigInt, a cycle).
 */
export function asRecorded<T>(value: T, what: string, api: string): T {
  if (value === undefined) return value;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new McpResolveError(
      'invalid_usage',
      `${what} returned a value with no JSON form (${error instanceof Error ? error.message : String(error)}). ` +
        'Return plain JSON data (ids, strings, numbers, arrays, objects).',
      { data: { api }, cause: error },
    );
  }
  if (text === undefined) {
    throw new McpResolveError(
      'invalid_usage',
      `${what} returned a ${typeof value}, which has no JSON form. Return plain JSON data.`,
      { data: { api } },
    );
  }
  return JSON.parse(text) as T;
}

/**
 * The journal a round carries: a fresh one on the first round (and on every legacy call, which runs
 * in one go); in a task's body, with the steps earlier runs of it recorded in the task.
 */
export function journalOf(ctx: ToolContext): Ledger {
  const plaintext: unknown = ctx.era === 'modern' ? ctx.mcpReq.requestState() : undefined;
  if (plaintext === undefined) {
    const journal = Ledger.fresh();
    for (const [key, entry] of Object.entries(roundServicesOf(ctx).durableSteps?.recorded ?? {}))
      journal.recordStep(key, entry[0]);
    return journal;
  }
  const ledger = typeof plaintext === 'string' ? Ledger.decode(plaintext) : undefined;
  // Only this library mints the (sealed) journal: an unknown shape means a redeploy mid-call.
  // Starting from an empty journal would run recorded steps again, so the call fails instead.
  if (ledger === undefined) {
    throw new ToolError('journaled(): this call carries a journal from an incompatible version; start the call over.');
  }
  return ledger;
}

/** The size of `journal` in bytes; throws `invalid_usage` when it is over `maxBytes` (`journaled()`'s bound). */
export function journalSize(journal: string, maxBytes: number): number {
  const bytes = Buffer.byteLength(journal, 'utf8');
  if (bytes > maxBytes) {
    throw new McpResolveError(
      'invalid_usage',
      `journaled(): this call's journal is ${bytes} bytes, over maxJournalBytes (${maxBytes}). ` +
        'Record ids rather than documents in ctx.step(), or raise maxJournalBytes.',
      { data: { api: 'journaled()' } },
    );
  }
  return bytes;
}

/**
 * In a task's body, records step `key` of `journal` in the task before the body goes on (within
 * `maxBytes`); rejects when the run no longer holds the task. Elsewhere, nothing to do.
 */
export async function recordDurably(ctx: ToolContext, journal: Ledger, key: string, maxBytes: number): Promise<void> {
  const durable = roundServicesOf(ctx).durableSteps;
  if (durable === undefined) return;
  journalSize(journal.encode(), maxBytes);
  await durable.record(key, journal.step(key) ?? []);
}
