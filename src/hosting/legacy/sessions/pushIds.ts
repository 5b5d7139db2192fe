/**
 * Push ids: every server-to-client request of a legacy session leaves with an id of 128 random
 * bits naming the instance that waits for its answer (`mcpr:<instance id>:<32 hex digits>`),
 * never the SDK's counter (0, 1, 2…); an answer is taken only when it names a push that waits,
 * and a cancellation follows its push under that id. In a fleet the ids are also recorded in the
 * shared store (fleetHooks.ts); a process-only leg keeps them on the session's transport
 * ({@link LocalRelay}, {@link takeLocalAnswers}).
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import { isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResponse } from '@modelcontextprotocol/server';

import type { Relay, SessionTransport } from './sessionTransport.js';
import { WIRE_ID_PREFIX } from './sessionTransport.js';
import { toHex } from '../../../state/bytes.js';

/** The instance a process-only leg's push ids name. */
const LOCAL_INSTANCE = 'local';

/** A fresh push id naming instance `instanceId`: `mcpr:<instance id>:<128 random bits as 32 hex digits>`. */
export function newPushId(instanceId: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `${WIRE_ID_PREFIX}${instanceId}:${toHex(bytes)}`;
}

/** Records that `transport` waits for the answer to push `wireId` (local id `localId`, related to client request `call`). */
export function awaitPush(
  transport: SessionTransport,
  wireId: string,
  localId: RequestId,
  call: RequestId | undefined,
): void {
  transport.pushes.set(wireId, { localId, call });
}

/**
 * The cancellation `message` rewritten to name its push's wire id (the push no longer waits;
 * `forget` is told its wire id), or `message` itself when it cancels no push of `transport`.
 */
export function cancelPush(
  transport: SessionTransport,
  message: JSONRPCMessage,
  forget: (wireId: string) => void,
): JSONRPCMessage {
  if (!isJSONRPCNotification(message) || message.method !== 'notifications/cancelled') return message;
  const requestId: unknown = message.params?.requestId;
  for (const [wireId, { localId }] of transport.pushes) {
    if (localId !== requestId) continue;
    transport.pushes.delete(wireId);
    forget(wireId);
    return { ...message, params: { ...message.params, requestId: wireId } };
  }
  return message;
}

/** The hooks of a process-only leg's session transports: random push ids, no fleet. */
export class LocalRelay implements Relay {
  /** A push leaves with a random id, kept on its transport; a cancellation follows its push. */
  async outbound(
    transport: SessionTransport,
    message: JSONRPCMessage,
    call: RequestId | undefined,
  ): Promise<JSONRPCMessage> {
    if (!isJSONRPCRequest(message)) return cancelPush(transport, message, () => undefined);
    const wireId = newPushId(LOCAL_INSTANCE);
    awaitPush(transport, wireId, message.id, call);
    return { ...message, id: wireId };
  }

  /** No other instance holds a GET stream: always `false`. */
  async toStreamHolder(): Promise<boolean> {
    return false;
  }
}

/**
 * A process-only leg's POST body with each answer to a push of `transport` given the push's local
 * id, and every other answer dropped (reported): an id that names no waiting push reaches nothing.
 * `undefined` when nothing is left.
 */
export function takeLocalAnswers(
  transport: SessionTransport,
  body: unknown,
  report: (error: unknown) => void,
): unknown {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const kept: unknown[] = [];
  for (const message of messages) {
    if (!isJSONRPCResponse(message)) {
      kept.push(message);
      continue;
    }
    const push = typeof message.id === 'string' ? transport.pushes.get(message.id) : undefined;
    if (push === undefined) {
      report(new Error(`Dropped an answer: no push ${JSON.stringify(message.id)} waits on this session`));
      continue;
    }
    transport.pushes.delete(String(message.id));
    kept.push({ ...message, id: push.localId });
  }
  if (kept.length === 0) return undefined;
  return Array.isArray(body) ? kept : kept[0];
}
