/**
 * The carried trace inside sealed state. A plaintext that starts with byte 0x00 has a prefix:
 * `0x00, length, [context (25 bytes), rounds (1), sealedAt (8, float64)]`, then the handler's own
 * state. Without telemetry nothing is prefixed (a handler state starting with 0x00 gets an empty
 * prefix), so the state's size is unchanged for servers that observe nothing.
 */
import type { CarriedTrace } from './hooks.js';

const MARK = 0;
const CONTEXT_BYTES = 25;
const BODY_BYTES = CONTEXT_BYTES + 1 + 8;

/** `state` with `carried` in front of it (or an empty prefix when `state` itself starts with 0x00). */
export function withCarried(state: Uint8Array, carried: CarriedTrace | undefined): Uint8Array {
  if (carried === undefined || carried.context.length !== CONTEXT_BYTES) {
    if (state[0] !== MARK) return state;
    const escaped = new Uint8Array(state.length + 2);
    escaped.set(state, 2);
    return escaped;
  }
  const out = new Uint8Array(2 + BODY_BYTES + state.length);
  out[1] = BODY_BYTES;
  out.set(carried.context, 2);
  out[2 + CONTEXT_BYTES] = Math.min(carried.rounds, 255);
  new DataView(out.buffer).setFloat64(3 + CONTEXT_BYTES, carried.sealedAt);
  out.set(state, 2 + BODY_BYTES);
  return out;
}

/** Splits opened plaintext into the carried trace (if any) and the handler's state. */
export function splitCarried(plaintext: Uint8Array): { carried: CarriedTrace | undefined; state: Uint8Array } {
  if (plaintext[0] !== MARK || plaintext.length < 2) return { carried: undefined, state: plaintext };
  const length = plaintext[1] ?? 0;
  const state = plaintext.subarray(2 + length);
  if (length !== BODY_BYTES) return { carried: undefined, state };
  const view = new DataView(plaintext.buffer, plaintext.byteOffset, plaintext.byteLength);
  return {
    carried: {
      context: plaintext.slice(2, 2 + CONTEXT_BYTES),
      rounds: plaintext[2 + CONTEXT_BYTES] ?? 0,
      sealedAt: view.getFloat64(3 + CONTEXT_BYTES),
    },
    state,
  };
}
