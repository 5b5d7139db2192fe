/**
 * The pushes a session transport waits on, as the fleet link handles them: failed all at once when
 * their answers can no longer arrive, or taken one by one as answers do.
 */
import type { RequestId } from '@modelcontextprotocol/server';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

import { ANSWER_UNREACHABLE } from '../../questions/push.js';
import type { Session } from './session.js';
import type { SessionTransport } from './sessionTransport.js';

/**
 * Fails every push of `sessions` (those `which` names, when given) waiting for an answer the fleet
 * relay may have lost, so its call ends now (`forget` drops each push's shared record); resolves
 * once those calls have answered the client (or their transports closed).
 */
export function failWaitingPushes(
  sessions: Iterable<Session>,
  reason: string,
  forget: (sessionId: string | undefined, wireId: string) => void,
  report: (error: unknown) => void,
  which: (wireId: string) => boolean = () => true,
): Promise<void> {
  const answered: Array<Promise<void>> = [];
  let failed = 0;
  for (const session of sessions) {
    for (const [wireId, { localId: id, call }] of session.transport.pushes) {
      if (!which(wireId)) continue;
      session.transport.pushes.delete(wireId);
      if (call !== undefined) answered.push(session.transport.responded(call));
      forget(session.id, wireId);
      failed++;
      session.transport.onmessage?.({
        jsonrpc: '2.0',
        id,
        error: { code: ProtocolErrorCode.InternalError, message: reason, data: { reason: ANSWER_UNREACHABLE } },
      });
    }
  }
  if (failed > 0) report(new Error(`Failed ${failed} waiting push(es): ${reason}`));
  return Promise.all(answered).then(() => undefined);
}

/**
 * Takes the push that `wireId` names off `transport`'s waiting list (session `sessionId`): its
 * transport and local id, or `undefined` (reported, starting with `dropped`) when no such push waits.
 */
export function takeWaitingPush(
  transport: SessionTransport | undefined,
  sessionId: string,
  wireId: unknown,
  dropped: string,
  report: (error: unknown) => void,
): { transport: SessionTransport; localId: RequestId } | undefined {
  const localId = typeof wireId === 'string' ? transport?.pushes.get(wireId)?.localId : undefined;
  if (transport === undefined || localId === undefined || typeof wireId !== 'string') {
    report(new Error(`${dropped}: no push ${JSON.stringify(wireId)} of session ${sessionId} waits on this instance`));
    return undefined;
  }
  transport.pushes.delete(wireId);
  return { transport, localId };
}
