/**
 * The fleet's hooks on the session transports of one instance (a {@link Relay}): a push leaves with
 * a random id naming this instance (pushIds.ts), recorded in the shared store first; a cancellation follows its push
 * under that id; a message for a GET stream that another instance holds goes to that instance.
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import { isJSONRPCRequest } from '@modelcontextprotocol/server';

import { recordPush } from './fleetRelay.js';
import { awaitPush, cancelPush, newPushId } from '../sessions/pushIds.js';
import type { LegacySessionFleet } from '../sessionFleet.js';
import { maskBackendFailure } from './sessionStoreError.js';
import type { Relay, SessionTransport } from '../sessions/sessionTransport.js';
import type { PushKeeper } from './waitingPushes.js';

/** The hooks every session transport of this instance gets in a fleet, for the pushes its keeper (the fleet link) keeps. */
export class FleetHooks implements Relay {
  constructor(
    private readonly fleet: LegacySessionFleet,
    private readonly keeper: PushKeeper,
  ) {}

  /** A push leaves with a random id naming this instance, recorded in the shared store first; a cancellation follows its push. */
  async outbound(
    transport: SessionTransport,
    message: JSONRPCMessage,
    call: RequestId | undefined,
  ): Promise<JSONRPCMessage> {
    const { fleet, keeper } = this;
    if (!isJSONRPCRequest(message)) {
      return cancelPush(transport, message, (wireId) => keeper.forget(transport.sessionId, wireId));
    }
    const wireId = newPushId(fleet.instanceId);
    const sessionId = transport.sessionId;
    const report = (error: unknown): void => keeper.report(error);
    // Recorded before the push leaves: the answer may reach another instance at once.
    if (sessionId !== undefined)
      await recordPush(fleet, { sessionId, wireId, method: message.method }, keeper.legacySessionIdleMs, report);
    awaitPush(transport, wireId, message.id, call);
    keeper.pushed();
    return { ...message, id: wireId };
  }

  /** Sends a message meant for the GET stream to the instance holding it; `false` when no other instance does. */
  async toStreamHolder(sessionId: string | undefined, message: JSONRPCMessage): Promise<boolean> {
    const { fleet } = this;
    if (sessionId === undefined) return false;
    try {
      const holder = await fleet.streamHolder(sessionId);
      if (holder === undefined || holder === fleet.instanceId) return false;
      await fleet.send(holder, { kind: 'deliver', sessionId, message });
      return true;
    } catch (error) {
      // The sender (a tool's push, a notification) reads only the masked text; the cause is reported.
      const report = (cause: unknown): void => this.keeper.report(cause);
      const masked = maskBackendFailure("relay a message to the session's GET stream", error, report);
      throw new Error(masked, { cause: error });
    }
  }
}
