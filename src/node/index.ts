/**
 * mcp-resolve/node: hosting on Node (and Node-compatible runtimes such as Bun and Deno) — both eras
 * over `node:http` on one URL, or over this process's stdio. The root entry `mcp-resolve` stays
 * runtime-neutral (Web-standard APIs only); everything that needs `node:*` lives here.
 *
 * ```ts
 * import { serveHttp, serveStdio } from 'mcp-resolve/node';
 * serveStdio(server);                            // a McpResolveServer, or any SDK server factory
 * const handle = await serveHttp(server, { port: 3000 });
 * ```
 *
 * @packageDocumentation
 */
import type { HttpServerHandle, ServeHttpOptions } from './http.js';
import type { ServerSource } from '../hosting/source.js';
import { factoryOf } from '../hosting/source.js';
import { loadPeer } from '../peer.js';
import type { ServeStdioOptions, StdioServerHandle } from './stdio.js';
import { serveFactoryStdio } from './stdio.js';

export type { HttpServerHandle, ServeHttpOptions, ServeStdioOptions, StdioServerHandle };

/** Serves both eras on this process's stdio (or `options.transport`); the first message picks the era. */
export function serveStdio(server: ServerSource, options?: ServeStdioOptions): StdioServerHandle {
  return serveFactoryStdio(factoryOf(server, 'serveStdio()'), options);
}

/**
 * Serves both eras over `node:http` on one URL (default `http://127.0.0.1:<port>/mcp`), DNS-rebinding
 * guard on. Needs `@modelcontextprotocol/node`, loaded on first use so `serveStdio` works without it.
 */
export async function serveHttp(server: ServerSource, options?: ServeHttpOptions): Promise<HttpServerHandle> {
  const http = await loadPeer('@modelcontextprotocol/node', 'serveHttp()', () => import('./http.js'));
  return http.listenHttp(server, options);
}
