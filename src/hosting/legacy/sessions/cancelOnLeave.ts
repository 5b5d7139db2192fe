/**
 * A client that leaves mid-call (its connection closed, or it cancelled the response body): its
 * calls on the session are cancelled at once, so their pushes stop waiting for an answer that
 * cannot arrive.
 */
import type { RequestId } from '@modelcontextprotocol/server';

import { CLIENT_LEFT_REASON } from '../../../clientLeft.js';

import { requestIds } from './requestIds.js';
import type { SessionTransport } from './sessionTransport.js';

/** Watches a request for its client leaving: its calls on the session are cancelled when it does. */
export class LeaveWatch {
  private readonly calls: RequestId[];
  private gone = false;
  private readonly leave = (): void => {
    if (this.gone) return;
    this.gone = true;
    for (const id of this.calls) cancelCall(this.transport, id);
  };

  /** Watches `request` (whose parsed body is `body`) on `transport`. */
  constructor(
    private readonly transport: SessionTransport,
    private readonly request: Request,
    body: unknown,
  ) {
    this.calls = requestIds(body);
    if (this.calls.length > 0) request.signal.addEventListener('abort', this.leave, { once: true });
  }

  /** Ends the watch once the response body is done; `cancelled`: its consumer cancelled it, the client left. */
  settled(cancelled: boolean): void {
    this.request.signal.removeEventListener('abort', this.leave);
    if (cancelled) this.leave();
  }
}

function cancelCall(transport: SessionTransport, requestId: RequestId): void {
  transport.onmessage?.({
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId, reason: CLIENT_LEFT_REASON },
  });
}
