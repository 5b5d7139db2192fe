/**
 * The Tasks extension adapter for any SDK 2.4 client: wrap the client's transport so a
 * `CreateTaskResult` (which the SDK 2.4 client refuses: `Unsupported result type 'task'`) reaches
 * it as a complete result whose `_meta` carries the task handle (read it with `taskOf`).
 */
import type { Transport } from '@modelcontextprotocol/client';

import { ForwardingTransport } from '../hosting/forwardingTransport.js';
import { adaptTaskResult } from './tasks.js';

/** Wraps `transport` (stdio, Streamable HTTP, in-memory…) so its client accepts task results; pass the result to `client.connect`. */
export function withTaskResults(transport: Transport): Transport {
  return new ForwardingTransport(transport, { received: adaptTaskResult });
}
