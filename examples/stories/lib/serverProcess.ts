/**
 * A story's server as a child process: connected to over stdio or HTTP, started over HTTP on a
 * free port and stopped with the connection; and reading the URL any server process prints when
 * it listens.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';

import type { HttpConnectOptions, TestConnection } from 'mcp-resolve/testing';
import { connectHttp, connectStdio } from 'mcp-resolve/testing';

/** How {@link listeningUrl} waits. */
export interface ListeningOptions {
  /** Names the process in errors. */
  readonly name: string;
  /** Gives up after this long (default: waits until the process exits). */
  readonly timeoutMs?: number;
  /** Sees each chunk the process writes to stderr, as it arrives (e.g. to log it). */
  readonly onOutput?: (chunk: string) => void;
}

/**
 * Resolves with the URL a server process prints on stderr (`listening on <url>`); rejects with
 * everything it printed if it exits first or `timeoutMs` passes. Its stderr must be piped; it is
 * drained for the rest of the process's life, so the child never blocks on a full pipe. Shared by
 * the stories, the benchmarks, the runtime script and the tests that start servers.
 */
export function listeningUrl(child: ChildProcess, options: ListeningOptions): Promise<URL> {
  const { name, timeoutMs, onOutput } = options;
  const stderr = child.stderr;
  if (stderr === null) return Promise.reject(new Error(`${name}: its stderr must be piped to read its URL`));
  let seen = '';
  let listening = false;
  return new Promise<URL>((resolve, reject) => {
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs} ms:\n${seen}`)), timeoutMs);
    stderr.setEncoding('utf8');
    stderr.on('data', (chunk: string) => {
      onOutput?.(chunk);
      if (listening) return;
      seen += chunk;
      const match = /listening on (\S+)/.exec(seen);
      if (match?.[1]) {
        listening = true;
        clearTimeout(timer);
        resolve(new URL(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${String(code)} before listening:\n${seen}`));
    });
  });
}

/** A story server running over HTTP. */
export interface HttpServerProcess {
  /** Where it listens (the MCP endpoint). */
  readonly url: URL;
  /** Stops it (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `entry` (a story's `server.ts`, run with tsx) with `args` and `--http --port 0` and resolves
 * with its URL once it prints `listening on <url>` on stderr; `name` labels the error if it exits first.
 */
export async function startHttpServer(
  entry: string,
  name: string,
  args: readonly string[] = [],
): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args, '--http', '--port', '0'], {
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  const url = await listeningUrl(child, { name: `${name} server` });
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** How a story's client reaches its server. */
export type StoryTransport = 'stdio' | 'http';

/** How {@link connectStory} connects: the test client's options, and an already running server (HTTP only). */
export interface StoryConnectOptions extends HttpConnectOptions {
  /** A server already listening; without it an HTTP story starts its own. */
  readonly url?: URL | undefined;
  /** Extra command-line arguments for a server started here (e.g. `--guided`). */
  readonly serverArgs?: readonly string[];
}

/**
 * Connects a test client to the story server `entry` (run with tsx): spawned over stdio, or over
 * HTTP at `options.url` or on a server started here (`name` labels its errors). The connection's
 * `close()` also stops a server started here; so does a failed connect.
 */
export async function connectStory(
  entry: string,
  name: string,
  transport: StoryTransport,
  options: StoryConnectOptions,
): Promise<TestConnection> {
  const { url, transportOptions, serverArgs = [], ...common } = options;
  if (transport === 'stdio') return connectStdio(process.execPath, ['--import', 'tsx', entry, ...serverArgs], common);
  let server: HttpServerProcess | undefined;
  try {
    const connection = await connectHttp(url ?? (server = await startHttpServer(entry, name, serverArgs)).url, {
      ...common,
      ...(transportOptions !== undefined && { transportOptions }),
    });
    return {
      client: connection.client,
      counters: connection.counters,
      async close() {
        await connection.close();
        await server?.stop();
      },
    };
  } catch (error) {
    await server?.stop();
    throw error;
  }
}
