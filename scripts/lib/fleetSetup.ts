/**
 * The pieces of a refund-desk fleet on loopback, shared by `npm run fleet` and the fleet
 * benchmark: story instances as fleet members, and an nginx doing plain round-robin.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { onlyBlock } from './docBlocks.js';
import { waitForPort } from './processes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = fileURLToPath(new URL('../../examples/stories/refund-desk/server.ts', import.meta.url));

/** A running story instance. */
export interface StoryInstance {
  readonly id: string;
  readonly port: number;
  readonly child: ChildProcess;
}

/**
 * Starts `server.ts --http --port <port> --redis <url> --instance <id>` (or, given an array, those
 * arguments instead of `--redis <url>`, e.g. `--cluster h:p,…`; plus `extraArgs`, e.g.
 * `--otel file:PATH`) and waits until it listens.
 */
export function startStoryInstance(
  id: string,
  port: number,
  redis: string | readonly string[],
  env: NodeJS.ProcessEnv,
  track: (child: ChildProcess) => ChildProcess,
  extraArgs: readonly string[] = [],
): Promise<StoryInstance> {
  const target = typeof redis === 'string' ? ['--redis', redis] : redis;
  return startInstanceProcess(id, port, SERVER, [...target, ...extraArgs], env, track);
}

/**
 * Starts `script --http --port <port> --instance <id> ...args` under tsx and waits until it
 * listens; `onstderr` sees what it writes to stderr.
 */
export async function startInstanceProcess(
  id: string,
  port: number,
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  track: (child: ChildProcess) => ChildProcess,
  onstderr?: (line: string) => void,
): Promise<StoryInstance> {
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', script, '--http', '--port', String(port), '--instance', id, ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  let output = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    output += chunk;
    if (onstderr !== undefined) for (const line of chunk.split('\n')) if (line !== '') onstderr(line);
  });
  await waitForPort(port, 60_000, () =>
    child.exitCode !== null ? `instance ${id} exited (${String(child.exitCode)}):\n${output}` : undefined,
  );
  return { id, port, child };
}

/**
 * The nginx configuration of a loopback fleet: the `server` block of docs/guides/scaling.md ("nginx
 * in front of a fleet") as written, with its example upstreams and `listen 80` replaced by
 * `upstreams` and `port` on loopback, inside the process settings a throwaway nginx needs (pid,
 * temporary paths in `dir`). So the fleet, chaos and attack runs prove the configuration users copy.
 */
export function nginxConfig(dir: string, port: number, upstreams: readonly number[]): string {
  const documented = onlyBlock(ROOT, 'docs/guides/scaling.md', 'nginx');
  const servers = /^( *)server 10\.0\.0\.\d+:3000 .*\n/gm;
  const indent = servers.exec(documented)?.[1] ?? '  ';
  let configured = documented.replace(servers, '');
  configured = configured.replace(
    'upstream desks {\n',
    `upstream desks {\n${upstreams.map((upstream) => `${indent}server 127.0.0.1:${upstream} max_fails=1 fail_timeout=2s;`).join('\n')}\n`,
  );
  configured = configured.replace(/^( *)listen 80;/m, `$1listen 127.0.0.1:${port};`);
  if (!configured.includes(`127.0.0.1:${upstreams[0]}`) || !configured.includes(`listen 127.0.0.1:${port};`)) {
    throw new Error(
      'docs/guides/scaling.md: the nginx block no longer has the `upstream desks` and `listen 80` lines the fleet runs replace',
    );
  }
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  return `worker_processes 1;
daemon off;
pid ${join(dir, 'nginx.pid')};
error_log stderr error;
events { worker_connections 1024; }
http {
  access_log off;
  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}
${configured}}
`;
}

/** Starts nginx from a config in `dir` (created) and waits until it listens on `port`. */
export async function startNginx(
  binary: string,
  dir: string,
  port: number,
  upstreams: readonly number[],
  track: (child: ChildProcess) => ChildProcess,
): Promise<ChildProcess> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, port, upstreams));
  const nginx = track(
    spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  await waitForPort(port, 60_000, () =>
    nginx.exitCode !== null ? `nginx exited (${String(nginx.exitCode)})` : undefined,
  );
  return nginx;
}
