/**
 * Serving both protocol eras over stdio: the SDK's `serveStdio`, with inbound messages normalised
 * (see inbound.ts) and out-of-band errors reported on stderr by default (stdout carries the
 * protocol, and the SDK's default is silence).
 */

import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { ServeStdioOptions, StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { serveStdio as sdkServeStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

import { NormalizedTransport } from './inbound.js';

export type { ServeStdioOptions, StdioServerHandle } from '@modelcontextprotocol/server/stdio';

/** Serves `factory` on this process's stdio (or `options.transport`); the first message picks the era. */
export function serveStdio(factory: McpServerFactory, options: ServeStdioOptions = {}): StdioServerHandle {
  return sdkServeStdio(factory, {
    ...options,
    transport: new NormalizedTransport(options.transport ?? new StdioServerTransport()),
    onerror: options.onerror ?? reportOnStderr,
  });
}

function reportOnStderr(error: Error): void {
  process.stderr.write(`mcp-resolve: ${error.stack ?? error.message}\n`);
}
