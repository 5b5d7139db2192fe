/** A story's server as a child process: started over HTTP on a free port, stopped on demand. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** A story server running over HTTP. */
export interface HttpServerProcess {
  /** Where it listens (the MCP endpoint). */
  readonly url: URL;
  /** Stops it (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `entry` (a story's `server.ts`, run with tsx) with `--http --port 0` and resolves with its
 * URL once it prints `listening on <url>` on stderr; `name` labels the error if it exits first.
 */
export async function startHttpServer(entry: string, name: string): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, '--http', '--port', '0'], {
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let seen = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      seen += chunk;
      const match = /listening on (\S+)/.exec(seen);
      if (match?.[1]) resolve(new URL(match[1]));
    });
    child.once('exit', (code) =>
      reject(new Error(`${name} server exited with code ${String(code)} before listening:\n${seen}`)),
    );
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
