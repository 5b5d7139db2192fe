/**
 * A client that leaves mid-call (its connection closed, or it cancelled the response body): its
 * calls on the session are cancelled at once, so their pushes stop waiting for an answer that
 * cannot arrive.
 */
import type { RequestId } from '@modelcontextprotocol/server';

import { CLIENT_LEFT_REASON } from '../../../clientLeft.js';

import { requestIds } from './requestIds.js';
import type { SessionTransport } from './sessionTransport.js';

/** Watches `request` for the client leaving; `settled` is called once the response body is done (or cancelled). */
export function cancelOnLeave(
  transport: SessionTransport,
  request: Request,
  body: unknown,
): { settled(cancelled: boolean): void } {
  const calls = requestIds(body);
  let gone = false;
  const leave = (): void => {
    if (gone) return;
    gone = true;
    for (const id of calls) cancelCall(transport, id);
  };
  if (calls.length > 0) request.signal.addEventListener('abort', leave, { once: true });
  return {
    settled(cancelled) {
      request.signal.removeEventListener('abort', leave);
      if (cancelled) leave();
    },
  };
}

function cancelCall(transport: SessionTransport, requestId: RequestId): void {
  transport.onmessage?.({
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId, reason: CLIENT_LEFT_REASON },
  });
}
