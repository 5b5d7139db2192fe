/**
 * Tickets: random values the server hands a client to send back (an app's re-run `tools/call`),
 * which it takes only if it minted them. A ticket is 16 random bytes and the first 16 bytes of
 * their HMAC-SHA256 under the sealing key ring's ticket subkey, both base64url (44 characters);
 * any key of the ring recognizes it, so a fleet sharing keys shares tickets, and a rotated key
 * keeps recognizing the tickets it minted. A value the client chose itself is not one.
 */
import { equalBytes, fromBase64urlStrict, utf8 } from './bytes.js';
import type { KeyRing } from './keys.js';
import type { CryptoPrimitives } from './primitives.js';

/** The tickets of one server. */
export interface Tickets {
  /** A fresh ticket. */
  mint(this: void): string;
  /** `sent` when it is a ticket this server (or a fleet sharing its keys) minted, else `undefined`. */
  recognized(this: void, sent: unknown): string | undefined;
}

const LABEL = utf8('mcp-resolve ticket\n');
const PART_BYTES = 16;
/** Two base64url parts of 16 bytes (22 characters each). */
const TICKET = /^[A-Za-z0-9_-]{44}$/;

/** The {@link Tickets} of `ring`. */
export function createTickets(ring: KeyRing, primitives: CryptoPrimitives): Tickets {
  const macOf = (mac: KeyRing['sealing']['ticketMac'], nonce: Uint8Array) =>
    mac([LABEL, nonce]).subarray(0, PART_BYTES);
  return {
    mint() {
      const nonce = new Uint8Array(PART_BYTES);
      primitives.fillRandom(nonce);
      return primitives.encodeBase64url(nonce) + primitives.encodeBase64url(macOf(ring.sealing.ticketMac, nonce));
    },
    recognized(sent) {
      if (typeof sent !== 'string' || !TICKET.test(sent)) return undefined;
      const nonce = fromBase64urlStrict(sent.slice(0, 22), primitives.decodeBase64url);
      const tag = fromBase64urlStrict(sent.slice(22), primitives.decodeBase64url);
      if (nonce === undefined || tag === undefined) return undefined;
      for (const key of ring.byId.values()) if (equalBytes(macOf(key.ticketMac, nonce), tag)) return sent;
      return undefined;
    },
  };
}
