/**
 * Child processes: servers for the throughput benchmark (started on a free loopback port, always
 * stopped), and probes that need a process of their own (for example a heap measured with
 * `--expose-gc`, away from the runner's own allocations).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

import { listeningUrl } from '../../examples/stories/lib/serverProcess.js';

/** The repository root (scripts are given relative to it). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A running server process. */
export interface ServerProcess {
  readonly url: URL;
  readonly pid: number | undefined;
  /** SIGTERM, then SIGKILL after 3 s; resolves once the process has exited. */
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 30_000;

/** A tsconfig without the root's `paths`, so `mcp-resolve` imports resolve to the built `dist/`. */
const BUILT_PACKAGE_TSCONFIG = fileURLToPath(new URL('../tsconfig.dist.json', import.meta.url));

/** How to start a server process. */
export interface StartOptions {
  /** Flags for node itself (for example `--cpu-prof`). */
  readonly nodeFlags?: readonly string[];
  /** Load `mcp-resolve` from the built `dist/` instead of `src/` (the root tsconfig maps it to `src/`). */
  readonly builtPackage?: boolean;
}

/**
 * Runs `node <nodeFlags> --import tsx <script> <args>` from the repository root and waits for the
 * `… listening on URL` line on its stderr.
 */
export async function startServer(
  script: string,
  args: readonly string[],
  options: StartOptions = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: options.builtPackage === true ? { ...process.env, TSX_TSCONFIG_PATH: BUILT_PACKAGE_TSCONFIG } : process.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = once(child, 'exit');
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  try {
    const url = await listeningUrl(child, { name: script, timeoutMs: STARTUP_TIMEOUT_MS });
    return {
      url,
      pid: child.pid,
      async stop() {
        process.off('exit', kill);
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const timer = setTimeout(kill, 3_000);
        await exited;
        clearTimeout(timer);
      },
    };
  } catch (error) {
    process.off('exit', kill);
    kill();
    throw error;
  }
}

const PROBE_TIMEOUT_MS = 300_000;

/**
 * Runs `node <nodeFlags> --import tsx <script> <args>` from the repository root to completion and
 * resolves with its stdout; its stderr lines go to `log`. Rejects if it exits non-zero or runs
 * longer than 5 minutes.
 */
export async function runProbe(
  script: string,
  args: readonly string[],
  options: { readonly nodeFlags?: readonly string[]; readonly log?: (line: string) => void } = {},
): Promise<string> {
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', script, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const timer = setTimeout(kill, PROBE_TIMEOUT_MS);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
    const lines = stderr.split('\n');
    stderr = lines.pop() ?? '';
    for (const line of lines) options.log?.(line);
  });
  try {
    await once(child, 'close'); // after 'exit' and the end of both pipes: stdout is complete
    if (stderr !== '') options.log?.(stderr);
    const code = child.exitCode;
    if (code !== 0) {
      throw new Error(`${script} exited with ${code === null ? `signal ${String(child.signalCode)}` : `code ${code}`}`);
    }
    return stdout;
  } finally {
    clearTimeout(timer);
    process.off('exit', kill);
  }
}
