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
import type { McpServerFactory } from '@modelcontextprotocol/server';

import type { HttpServerHandle, ServeHttpOptions } from '../hosting/http.js';
import { serveHttp as serveFactoryHttp } from '../hosting/http.js';
import type { ServerSource } from '../hosting/source.js';
import { factoryOf } from '../hosting/source.js';
import type { ServeStdioOptions, StdioServerHandle } from '../hosting/stdio.js';
import { serveStdio as serveFactoryStdio } from '../hosting/stdio.js';

export type { HttpServerHandle, ServeHttpOptions, ServeStdioOptions, ServerSource, StdioServerHandle };

/** Serves both eras on this process's stdio (or `options.transport`); the first message picks the era. */
export function serveStdio(server: ServerSource, options?: ServeStdioOptions): StdioServerHandle {
  return serveFactoryStdio(factoryOf(server), options);
}

/** Serves both eras over `node:http` on one URL (default `http://127.0.0.1:<port>/mcp`), DNS-rebinding guard on. */
export function serveHttp(server: ServerSource, options?: ServeHttpOptions): Promise<HttpServerHandle> {
  return serveFactoryHttp(factoryOf(server), options);
}

/** The SDK server factory type both functions accept besides a `McpResolveServer`. */
export type { McpServerFactory };
