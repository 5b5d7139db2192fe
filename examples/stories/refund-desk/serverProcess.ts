/** The desk server as a child process: its entry file, and starting it over HTTP on a free port. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The desk server's entry file. */
export const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

/** Starts the server over HTTP on a free port and resolves with its URL once it listens. */
export async function startHttpServer(): Promise<{ url: URL; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, '--http', '--port', '0'], {
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
      reject(new Error(`refund-desk server exited with code ${String(code)} before listening:\n${seen}`)),
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
