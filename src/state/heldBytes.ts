/**
 * The size a client-declared JSON value takes when a session keeps it: its JSON bytes plus a
 * fixed cost per object, array and key, so that many small objects weigh what they cost on the
 * heap (measured: ~90 bytes of heap per `"k":{}` entry of 8 JSON bytes). Iterative: a deeply
 * nested value cannot overflow the stack.
 */
import { heldTextBytes, utf8Bytes } from './bytes.js';

/** What each object, array and object key costs on top of its JSON bytes. */
export const NODE_BYTES = 64;

/** The held size of `value` in bytes. */
export function heldBytes(value: unknown): number {
  let total = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') total += heldTextBytes(item) + 2;
    else if (typeof item === 'number') total += String(item).length;
    else if (typeof item === 'boolean') total += item ? 4 : 5;
    else if (Array.isArray(item)) {
      total += NODE_BYTES + 2 + Math.max(0, item.length - 1);
      for (const entry of item) pending.push(entry);
    } else if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item);
      total += NODE_BYTES + 2 + Math.max(0, entries.length - 1);
      for (const [key, entry] of entries) {
        if (entry === undefined) continue;
        total += NODE_BYTES + utf8Bytes(key) + 3;
        pending.push(entry);
      }
    } else total += 4; // null (undefined entries are skipped above, as JSON drops them)
  }
  return total;
}
