/**
 * Serving both protocol eras over this process's stdio: {@link serveTransport} on the SDK's stdio
 * transport, with a configurable limit on one inbound message, and out-of-band errors reported on
 * stderr as one line each by default (stdout carries the protocol, and the SDK's default is
 * silence). A message over the limit closes the connection with a clear line and exit code 1.
 */
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import type { ServeStdioOptions as SdkServeStdioOptions, StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

import { McpResolveError } from '../errors.js';
import { oneLine, serveTransport } from '../hosting/serveTransport.js';
import { positiveInteger } from '../optionChecks.js';

export type { StdioServerHandle } from '@modelcontextprotocol/server/stdio';
/** Options of `serveStdio`: the SDK's, plus the inbound message limit. */
export interface ServeStdioOptions extends SdkServeStdioOptions {
  /**
   * The largest inbound message (one line of stdin) in bytes. A longer line closes the connection:
   * one line on stderr (through `onerror`) says so, and the process exit code becomes 1. Applies to
   * the default stdio transport; a `transport` you pass brings its own limit.
   * @default 10 MiB (the SDK's `STDIO_DEFAULT_MAX_BUFFER_SIZE`)
   */
  maxMessageBytes?: number;
}

/** Serves `factory` on this process's stdio (or `options.transport`); the first message picks the era. */
export function serveFactoryStdio(factory: McpServerFactory, options: ServeStdioOptions = {}): StdioServerHandle {
  const { maxMessageBytes, transport, onerror, ...served } = options;
  const report = onerror ?? reportOnStderr;
  const limit = positiveInteger('serveStdio()', 'maxMessageBytes', maxMessageBytes, STDIO_DEFAULT_MAX_BUFFER_SIZE, {
    unit: 'number of bytes',
    statesDefault: true,
  });
  if (maxMessageBytes !== undefined && transport !== undefined) {
    throw new McpResolveError(
      'invalid_options',
      'serveStdio(): maxMessageBytes applies to the default stdio transport only. Pass the limit to your transport instead (for example new StdioServerTransport(stdin, stdout, { maxBufferSize })).',
      { data: { api: 'serveStdio()', option: 'maxMessageBytes' } },
    );
  }
  const ownsProcess = transport === undefined;
  const guard = { limit, onerror: report, onFatalClose: ownsProcess ? setExitCode : undefined };
  const stdio = transport ?? new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: limit });
  return serveTransport(factory, stdio, guard, served);
}

/** Writes one line per error on stderr: no stack, whitespace collapsed, long messages cut. */
function reportOnStderr(error: Error): void {
  process.stderr.write(`mcp-resolve: ${oneLine(error.message)}\n`);
}

/** A connection on this process's stdio closed by an error: the process exits with 1 when it ends. */
function setExitCode(): void {
  process.exitCode = 1;
}
