/**
 * Connecting a test client to a server factory in the same process, over a linked in-memory
 * transport pair served by the SDK's `serveStdio` (both eras, full push support, no sockets).
 */

import { InMemoryTransport } from '@modelcontextprotocol/server';

import type { ServerSource } from '../hosting/source.js';
import { factoryOf } from '../hosting/source.js';
import { serveTransport } from '../hosting/serveTransport.js';
import type { ConnectOptions, TestConnection } from './connection.js';
import { connectObserved } from './connection.js';
import { ObservedTransport } from './observedTransport.js';

/** Options of {@link connectInProcess}. */
export interface InProcessConnectOptions extends ConnectOptions {
  /** Receives the serving side's out-of-band errors (silent by default). */
  onServerError?: (error: Error) => void;
}

/**
 * Connects a client on `options.era` to one instance of `server` (a `McpResolveServer` or an SDK
 * server factory: whatever `serveStdio` and `serveHttp` accept), in process.
 */
export async function connectInProcess(
  server: ServerSource,
  options: InProcessConnectOptions,
): Promise<TestConnection> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const served = serveTransport(factoryOf(server, 'connectInProcess()'), serverEnd, {
    onerror: options.onServerError,
  });
  return connectObserved(
    'connectInProcess()',
    options,
    (observer) => new ObservedTransport(clientEnd, observer),
    () => served.close(),
  );
}
