/**
 * The journal of a journaled call (option J): what its steps returned and what the client
 * answered, carried between rounds as the plaintext of the sealed `requestState`. The server
 * keeps nothing.
 */
import { z } from 'zod';

import { ToolError } from '../errors.js';
import { parseState } from './json.js';

/** The default bound on a journal's size, in bytes of its JSON text (64 KiB). */
export const DEFAULT_MAX_JOURNAL_BYTES = 65_536;

/**
 * Version 1: `s` step results by step key (`[]` for `undefined`), `a` raw answers by question key,
 * `p` the question keys the previous round asked (answers to anything else are ignored).
 */
const JournalSchema = z.object({
  v: z.literal(1),
  s: z.record(z.string(), z.array(z.unknown()).max(1)),
  a: z.record(z.string(), z.unknown()),
  p: z.array(z.string()),
});

/** A decoded journal. */
export type Journal = z.infer<typeof JournalSchema>;

/** The journal of a call that has not run a step or asked anything yet. */
function emptyJournal(): Journal {
  return { v: 1, s: {}, a: {}, p: [] };
}

/** Decodes the journal a round carries (`undefined` for the first round); anything else this version did not write is a clear error. */
export function decodeJournal(plaintext: unknown): Journal {
  if (plaintext === undefined) return emptyJournal();
  const journal = parseState(plaintext, JournalSchema);
  // Only this library mints the (sealed) journal: an unknown shape means a redeploy mid-call.
  // Starting from an empty journal would run recorded steps again, so the call fails instead.
  if (journal === undefined) {
    throw new ToolError('journaled(): this call carries a journal from an incompatible version; start the call over.');
  }
  return journal;
}

/** Encodes a journal and measures it: the text that is sealed, and its size in UTF-8 bytes. */
export function encodeJournal(journal: Journal): { readonly text: string; readonly bytes: number } {
  const text = JSON.stringify(journal);
  return { text, bytes: Buffer.byteLength(text, 'utf8') };
}
