/**
 * Real helper processes for tests and scripts (redis-server, nginx): free loopback ports,
 * throwaway directories, readiness waits, and a stop that kills the whole process.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a Debian binary lives, or undefined when it is not installed. */
export function findBinary(name: string, candidates: readonly string[] = []): string | undefined {
  for (const path of [
    ...candidates,
    `/usr/bin/${name}`,
    `/usr/sbin/${name}`,
    `/usr/local/bin/${name}`,
    `/usr/local/sbin/${name}`,
  ]) {
    if (spawnSync(path, ['-v'], { stdio: 'ignore' }).error === undefined) return path;
  }
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const found = which.stdout.trim();
  return found === '' ? undefined : found;
}

/** A free TCP port on 127.0.0.1 (the OS picks it; the caller binds it right away). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once something accepts TCP connections on `port`, or rejects after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs = 10_000, exited?: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const why = exited?.();
    if (why !== undefined) throw new Error(why);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stops a child (SIGTERM, then SIGKILL after `graceMs`) and waits for its exit. */
export async function stopChild(child: ChildProcess, graceMs = 3_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A running redis-server. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGKILL when `hard`), keeping the port for a restart. */
  stop(hard?: boolean): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open but nothing answers. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
  /** Starts it again on the same port (after `stop`). */
  restart(): Promise<void>;
  /** Whether it runs (started, and not stopped since). */
  running(): boolean;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

/** The command that installs the Debian packages the fleet needs. */
export const INSTALL_HINT = 'apt-get update && apt-get install -y redis-server redis-sentinel nginx';

/**
 * Starts a real redis-server on a free loopback port in a throwaway directory, with no persistence
 * (`args` adds options, e.g. `--replicaof`; `binary` runs e.g. redis-sentinel with a config file;
 * `listen` replaces `--port`, e.g. with `RedisAccessSetup.serverArgs` for TLS and an ACL).
 */
export async function startRedisServer(
  options: {
    args?: (dir: string, port: number) => readonly string[];
    binary?: string;
    /** TLS only and an ACL login (`listen(port)` gives the arguments that replace `--port`). */
    listen?: (port: number) => readonly string[];
  } = {},
): Promise<RedisServer> {
  const binary = options.binary ?? findBinary('redis-server');
  if (binary === undefined) throw new Error(`redis-server is not installed. Install it with: ${INSTALL_HINT}`);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-resolve-redis-'));
  const port = await freePort();
  const extra = options.args?.(dir, port) ?? [];
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    let output = '';
    const started = spawn(
      binary,
      [
        ...extra,
        ...(options.listen?.(port) ?? ['--port', String(port)]),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForPort(port, 60_000, () =>
      started.exitCode !== null ? `redis-server exited (${String(started.exitCode)}):\n${output}` : undefined,
    );
  };
  try {
    await start();
  } catch (error) {
    if (child !== undefined) await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `${options.listen === undefined ? 'redis' : 'rediss'}://127.0.0.1:${port}`,
    port,
    async stop(hard = false) {
      if (child === undefined) return;
      if (hard) child.kill('SIGKILL');
      await stopChild(child);
      child = undefined;
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    restart: start,
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    async dispose() {
      if (child !== undefined) await stopChild(child);
      child = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
