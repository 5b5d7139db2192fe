/**
 * The fleet's hooks on the session transports of one instance (a {@link Relay}): a push leaves with
 * a random id naming this instance (pushIds.ts), recorded in the shared store first; a cancellation follows its push
 * under that id; a message for a GET stream that another instance holds goes to that instance.
 */
import { isJSONRPCRequest } from '@modelcontextprotocol/server';

import { recordPush } from './fleetRelay.js';
import { awaitPush, cancelPush, newPushId } from '../sessions/pushIds.js';
import type { LegacySessionFleet } from '../sessionFleet.js';
import { maskBackendFailure } from './sessionStoreError.js';
import type { Relay } from '../sessions/sessionTransport.js';

/** What {@link fleetHooks} needs beside the fleet. */
export interface FleetHooksOptions {
  /** How long a push's record is kept in the shared store, in ms (the session's idle lifetime). */
  readonly idleMs: number;
  /** Told after a push is recorded and waits for its answer. */
  readonly pushed: () => void;
  /** Forgets the shared record of a push this instance no longer waits for. */
  readonly forget: (sessionId: string | undefined, wireId: string) => void;
  /** The server's error sink (a push the store could not record, a message it could not relay). */
  readonly report: (error: unknown) => void;
}

/** The hooks every session transport of this instance gets in `fleet`. */
export function fleetHooks(fleet: LegacySessionFleet, options: FleetHooksOptions): Relay {
  const { idleMs, pushed, forget, report } = options;
  return {
    async outbound(transport, message, call) {
      if (!isJSONRPCRequest(message)) {
        return cancelPush(transport, message, (wireId) => forget(transport.sessionId, wireId));
      }
      const wireId = newPushId(fleet.instanceId);
      const sessionId = transport.sessionId;
      // Recorded before the push leaves: the answer may reach another instance at once.
      if (sessionId !== undefined)
        await recordPush(fleet, { sessionId, wireId, method: message.method }, idleMs, report);
      awaitPush(transport, wireId, message.id, call);
      pushed();
      return { ...message, id: wireId };
    },
    async toStreamHolder(sessionId, message) {
      if (sessionId === undefined) return false;
      try {
        const holder = await fleet.streamHolder(sessionId);
        if (holder === undefined || holder === fleet.instanceId) return false;
        await fleet.send(holder, { kind: 'deliver', sessionId, message });
        return true;
      } catch (error) {
        // The sender (a tool's push, a notification) reads only the masked text; the cause is reported.
        const masked = maskBackendFailure("relay a message to the session's GET stream", error, report);
        throw new Error(masked, { cause: error });
      }
    },
  };
}
