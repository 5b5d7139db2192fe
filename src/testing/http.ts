/**
 * Connecting a test client to an MCP endpoint over Streamable HTTP.
 */

import type { StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/client';

import { sdk } from './clientSdk.js';
import type { ConnectOptions, TestConnection } from './connection.js';
import { connectObserved } from './connection.js';
import { ObservedTransport } from './observedTransport.js';

/** Options of {@link connectHttp}. */
export interface HttpConnectOptions extends ConnectOptions {
  /** Passed to the SDK's `StreamableHTTPClientTransport` (auth, custom fetch, request init, …). */
  transportOptions?: StreamableHTTPClientTransportOptions;
}

/** Connects a client on `options.era` to the endpoint at `url`; closing ends a legacy session with DELETE. */
export async function connectHttp(url: URL, options: HttpConnectOptions): Promise<TestConnection> {
  const transport = new sdk.StreamableHTTPClientTransport(url, options.transportOptions);
  const connection = await connectObserved(
    'connectHttp()',
    options,
    (observer) => new ObservedTransport(transport, observer),
  );
  let closing: Promise<void> | undefined;
  return {
    client: connection.client,
    counters: connection.counters,
    close() {
      closing ??= (async () => {
        // DELETE before the client closes the transport, while it still holds the session id.
        if (transport.sessionId !== undefined) await transport.terminateSession().catch(() => {});
        await connection.close();
      })();
      return closing;
    },
  };
}
