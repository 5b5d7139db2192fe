/**
 * The pieces of a refund-desk fleet on loopback, shared by `npm run fleet` and the fleet
 * benchmark: story instances as fleet members, and an nginx doing plain round-robin.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { waitForPort } from './processes.js';

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
 * The nginx configuration of a plain round-robin balancer (no affinity) on `port` over `upstreams`,
 * with the two settings a fleet needs (docs/guides/scaling.md, "nginx in front of a fleet").
 */
export function nginxConfig(dir: string, port: number, upstreams: readonly number[]): string {
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  return `worker_processes 1;
daemon off;
pid ${join(dir, 'nginx.pid')};
error_log stderr error;
events { worker_connections 1024; }
http {
  access_log off;
  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}
  # Plain round-robin: no ip_hash, no sticky cookie, no hash on Mcp-Session-Id.
  upstream desks {
${upstreams.map((upstream) => `    server 127.0.0.1:${upstream} max_fails=1 fail_timeout=2s;`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    # No idle client connections: a reload closes them at once, racing a client's next request on one
    # (a legacy answer lost so, its call waits for its timeout). Each request opens its own.
    keepalive_timeout 0;
    location /mcp {
      # A request the instance never answered (it died) goes to the next one, POSTs included.
      proxy_next_upstream error timeout non_idempotent;
      proxy_pass http://desks;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host localhost;
      # The client's address, replacing whatever the client sent (the desk reads X-Real-IP from nginx only).
      proxy_set_header X-Real-IP $remote_addr;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_read_timeout 300s;
    }
  }
}
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
