/**
 * Connecting a test client to a server subprocess over stdio.
 */

import type { Stream } from 'node:stream';

import type { StdioServerParameters } from '@modelcontextprotocol/client/stdio';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { stdio as stdioSdk } from './clientSdk.js';
import type { ConnectOptions, TestConnection } from './connection.js';
import { connectObserved } from './connection.js';
import type { TransportObserver } from './observedTransport.js';
import { ObservedTransport } from './observedTransport.js';

/**
 * An observed stdio transport that still looks like stdio to the client (`pid`, `stderr`), so
 * probe timeouts keep their stdio meaning; the modern probe runs in place, on this one process.
 */
class ObservedStdioTransport extends ObservedTransport {
  constructor(
    private readonly stdio: StdioClientTransport,
    observer: TransportObserver,
  ) {
    super(stdio, observer);
  }

  get pid(): number | null {
    return this.stdio.pid;
  }

  get stderr(): Stream | null {
    return this.stdio.stderr;
  }
}

/** Spawns `command args…` as a stdio MCP server and connects a client on `options.era` to it. */
export async function connectStdio(
  command: string,
  args: string[],
  options: ConnectOptions & {
    /** The child's environment. @default the SDK's safe inherited subset */
    env?: Record<string, string>;
    /** The child's working directory. @default this process's */
    cwd?: string;
    /** What to do with the child's stderr. @default 'inherit' */
    stderr?: StdioServerParameters['stderr'];
  },
): Promise<TestConnection> {
  const transport = new stdioSdk.StdioClientTransport({
    command,
    args,
    ...(options.env !== undefined && { env: options.env }),
    ...(options.cwd !== undefined && { cwd: options.cwd }),
    ...(options.stderr !== undefined && { stderr: options.stderr }),
  });
  return connectObserved('connectStdio()', options, (observer) => new ObservedStdioTransport(transport, observer));
}
