/**
 * The fleet's hooks on the session transports of one instance (a {@link Relay}): a push leaves with
 * an id naming this instance, recorded in the shared store first; a cancellation follows its push
 * under that id; a message for a GET stream that another instance holds goes to that instance.
 */
import { isJSONRPCNotification, isJSONRPCRequest } from '@modelcontextprotocol/server';

import { recordPush } from './fleetRelay.js';
import type { LegacySessionFleet } from './sessionFleet.js';
import type { Relay } from './sessionTransport.js';
import { WIRE_ID_PREFIX } from './sessionTransport.js';

/** What {@link fleetHooks} needs beside the fleet. */
export interface FleetHooksOptions {
  /** How long a push's record is kept in the shared store, in ms (the session's idle lifetime). */
  readonly idleMs: number;
  /** Told after a push is recorded and waits for its answer. */
  readonly pushed: () => void;
  /** Forgets the shared record of a push this instance no longer waits for. */
  readonly forget: (sessionId: string | undefined, wireId: string) => void;
}

/** The hooks every session transport of this instance gets in `fleet`. */
export function fleetHooks(fleet: LegacySessionFleet, options: FleetHooksOptions): Relay {
  const { idleMs, pushed, forget } = options;
  return {
    async outbound(transport, message, call) {
      if (isJSONRPCRequest(message)) {
        const wireId = `${WIRE_ID_PREFIX}${fleet.instanceId}:${String(message.id)}`;
        const sessionId = transport.sessionId;
        // Recorded before the push leaves: the answer may reach another instance at once.
        if (sessionId !== undefined) await recordPush(fleet, sessionId, wireId, message.method, idleMs);
        transport.pushes.set(wireId, { localId: message.id, call });
        pushed();
        return { ...message, id: wireId };
      }
      if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
        const requestId: unknown = message.params?.requestId;
        for (const [wireId, { localId }] of transport.pushes) {
          if (localId !== requestId) continue;
          transport.pushes.delete(wireId);
          forget(transport.sessionId, wireId);
          return { ...message, params: { ...message.params, requestId: wireId } };
        }
      }
      return message;
    },
    async toStreamHolder(sessionId, message) {
      if (sessionId === undefined) return false;
      const holder = await fleet.streamHolder(sessionId);
      if (holder === undefined || holder === fleet.instanceId) return false;
      await fleet.send(holder, { kind: 'deliver', sessionId, message });
      return true;
    },
  };
}
