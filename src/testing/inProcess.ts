/**
 * Connecting a test client to a server factory in the same process: over a linked in-memory
 * transport pair served by the SDK's `serveStdio` (both eras, full push support, no sockets), or,
 * for a client with `authInfo`, over HTTP to the server's dual-era `fetch` handler called in process
 * (still no sockets), since a stdio connection carries no identity.
 */

import type { AuthInfo } from '@modelcontextprotocol/server';
import { InMemoryTransport } from '@modelcontextprotocol/server';

import { hostDualEra } from '../hosting/dualEraHandler.js';
import type { ServerSource } from '../hosting/source.js';
import { factoryOf } from '../hosting/source.js';
import { serveTransport } from '../hosting/serveTransport.js';
import type { ConnectOptions, TestConnection } from './connection.js';
import { connectObserved } from './connection.js';
import { connectHttp } from './http.js';
import { ObservedTransport } from './observedTransport.js';

/** Options of {@link connectInProcess}. */
type InProcessConnectOptions = Parameters<typeof connectInProcess>[1];

/** The host the in-process HTTP client names (a loopback name the handler allows by default). */
const IN_PROCESS_HOST = 'localhost';

/**
 * Connects a client on `options.era` to one instance of `server` (a `McpResolveServer` or an SDK
 * server factory: whatever `serveStdio` and `serveHttp` accept), in process, as `options.authInfo`
 * when given.
 */
export async function connectInProcess(
  server: ServerSource,
  options: ConnectOptions & {
    /** Receives the serving side's out-of-band errors (silent by default). */
    onServerError?: (error: Error) => void;
    /**
     * Who the client is, as an HTTP host's authentication says (`serveHttp`'s `authenticate`): every
     * request carries it, so handlers read it as `ctx.http.authInfo` and sealed state is bound to its
     * principal, exactly as over HTTP (the client speaks HTTP to the server's `fetch` handler, in process).
     * @default undefined — an anonymous client over an in-memory stdio pair
     */
    authInfo?: AuthInfo;
  },
): Promise<TestConnection> {
  if (options.authInfo !== undefined) return connectAuthenticated(server, options, options.authInfo);
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

/** A client whose every request reaches the server's `fetch` handler with `authInfo`. */
async function connectAuthenticated(
  server: ServerSource,
  options: InProcessConnectOptions,
  authInfo: AuthInfo,
): Promise<TestConnection> {
  const { handler } = hostDualEra(server, { onerror: options.onServerError ?? (() => {}) }, 'connectInProcess()');
  const fetchInProcess = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    request.headers.set('host', IN_PROCESS_HOST); // what a socket's request carries, and the Host check reads
    return handler.fetch(request, { authInfo });
  };
  const connection = await connectHttp(new URL(`http://${IN_PROCESS_HOST}/mcp`), {
    ...options,
    transportOptions: { fetch: fetchInProcess },
  }).catch(async (error: unknown) => {
    await handler.close();
    throw error;
  });
  return {
    client: connection.client,
    counters: connection.counters,
    close: async () => {
      await connection.close();
      await handler.close();
    },
  };
}
