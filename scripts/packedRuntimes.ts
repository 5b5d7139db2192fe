/**
 * `npm run runtimes:packed`: the refund desk from the packed package, installed as a user installs
 * it, on workerd, Bun, Deno and Node. Where `npm run runtimes` bundles from this repository's
 * node_modules (every peer present), this proves that optional peers are optional:
 *
 * - `npm pack` (dist/ already built) into a temp dir, then `npm install` of the tarball plus the
 *   required peers only (`@modelcontextprotocol/server`, `zod`, at package.json's ranges, from the
 *   npm registry, `--prefer-offline`) into an app outside the repository.
 * - workerd: the desk's Worker (`worker.ts`) bundled from that install as docs/guides/deploy.md says
 *   (esbuild, `workerd`/`worker`/`browser` conditions) and served by workerd, driven by the story
 *   client on 2026-07-28; and a Worker with `apps: {}` whose question app is read over MCP.
 *   Bun runs `bun.ts` from the install; Deno runs `deno.ts` bundled by esbuild; both eras each.
 * - Node: `serveHttp` (mcp-resolve/node) needs the optional peer `@modelcontextprotocol/node`, the
 *   one this Node case installs, after the other runtimes were checked without it.
 *
 * Prints `runtimes:packed <runtime> <era>: N passed, M failed`; exits non-zero on any failure;
 * stops every process it started and removes its temp dir on every exit path.
 */
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { MODERN_PROTOCOL_VERSION } from 'mcp-resolve/testing';

import { listeningUrl } from '../examples/stories/lib/serverProcess.js';
import { runRefundDesk } from '../examples/stories/refund-desk/client.js';
import { freePort, stopChild } from './lib/processes.js';
import {
  bundleModule,
  bundleWorker,
  durableObjectBinding,
  durableObjectNamespace,
  startWorkerd,
} from './lib/workerd.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STORY = join(ROOT, 'examples/stories/refund-desk');
const run = promisify(execFile);
const verbose = process.argv.includes('--verbose');
const log = (text: string) => {
  if (verbose) console.error(text);
};
const children: ChildProcess[] = [];
const lines: { runtime: string; era: string; passed: number; failed: number }[] = [];

function record(runtime: string, era: string, passed: number, failed: number, what?: string): void {
  lines.push({ runtime, era, passed, failed });
  if (failed > 0 && what !== undefined) console.error(`  ${runtime} ${era}: FAIL ${what}`);
}

/** A second Worker, with the question app on (its answer tool would change the desk's tool list). */
const APPS_WORKER = `
import { createDualEraHandler, McpResolveServer } from 'mcp-resolve';
let handler;
export default {
  fetch(request, env) {
    handler ??= createDualEraHandler(
      new McpResolveServer({ name: 'apps', version: '1.0.0' }, { apps: {}, requestState: { keys: [env.KEY] } }),
      { legacy: 'reject' },
    );
    return handler.fetch(request);
  },
};
`;

/** The desk on Node over \`serveHttp\` (docs/guides/deploy.md's Node server). */
const NODE = `
import { serveHttp } from 'mcp-resolve/node';
import { createRefundDesk } from './desk.js';
const handle = await serveHttp(createRefundDesk(), { port: 0 });
console.error('refund-desk listening on ' + handle.url.href);
`;

function workerdConfig(ports: { desk: number; apps: number }, keys: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "desk", worker = .desk), (name = "apps", worker = .apps) ],
  sockets = [
    (name = "desk", address = "127.0.0.1:${ports.desk}", http = (), service = "desk"),
    (name = "apps", address = "127.0.0.1:${ports.apps}", http = (), service = "apps"),
  ],
);
const apps :Workerd.Worker = (
  modules = [ (name = "apps.js", esModule = embed "apps.js") ],
  compatibilityDate = "2025-09-01",
  bindings = [ (name = "KEY", text = ${JSON.stringify(keys.slice(0, 64))}) ],
);
const desk :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-01",
  ${durableObjectNamespace('ReplayGuardObject')}
  bindings = [ (name = "MCP_REQUEST_STATE_KEYS", text = ${JSON.stringify(keys)}), ${durableObjectBinding('REPLAY_GUARD', 'ReplayGuardObject')} ],
);
`;
}

/** `npm <args>` in `cwd`, quiet; its output is printed only with --verbose. */
async function npm(cwd: string, args: string[]): Promise<void> {
  const { stdout, stderr } = await run(
    'npm',
    [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    {
      cwd,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  log(`[npm ${args[0] ?? ''}] ${stdout}${stderr}`.trimEnd());
}

/** Packs the built package and installs it with the required peers only into `app`. */
async function install(dir: string, app: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>;
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
  };
  await npm(ROOT, ['pack', '--ignore-scripts', '--pack-destination', dir]);
  const tarball = (await readdir(dir)).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball into ${dir}`);
  const required = Object.entries(manifest.peerDependencies)
    .filter(([name]) => manifest.peerDependenciesMeta[name]?.optional !== true)
    .map(([name, range]) => `${name}@${range}`);
  await mkdir(app, { recursive: true });
  await writeFile(join(app, 'package.json'), '{ "name": "packed-desk", "private": true, "type": "module" }\n');
  await writeFile(join(app, 'tsconfig.json'), '{}\n'); // esbuild resolves by package name, not this repository's paths
  await npm(app, ['install', join(dir, tarball), ...required]);
  const optional = Object.keys(manifest.peerDependenciesMeta).filter(
    (name) => manifest.peerDependenciesMeta[name]?.optional,
  );
  const present = optional.filter((name) => existsSync(join(app, 'node_modules', name)));
  record(
    'install',
    'required peers only',
    present.length === 0 ? 1 : 0,
    present.length,
    `installed ${present.join(', ')}`,
  );
  log(`[install] ${required.join(' ')}; no ${optional.join(', ')}`);
  for (const file of ['desk.ts', 'worker.ts', 'bun.ts', 'deno.ts']) await copyFile(join(STORY, file), join(app, file));
  await writeFile(join(app, 'apps.js'), APPS_WORKER);
  await writeFile(join(app, 'node.ts'), NODE);
}

function start(name: string, command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<URL> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return listeningUrl(child, { name, timeoutMs: 60_000, onOutput: (chunk) => log(`[${name}] ${chunk.trimEnd()}`) });
}

async function story(runtime: string, era: 'modern' | 'legacy', url: URL): Promise<void> {
  const report = await runRefundDesk({ transport: 'http', era, url, log });
  record(
    runtime,
    era === 'modern' ? MODERN_PROTOCOL_VERSION : '2025-11-25',
    report.passed,
    report.failed,
    report.summary,
  );
}

/** Reads the question app over MCP from the apps Worker: one document, the `App` class inlined. */
async function questionApp(url: URL): Promise<void> {
  const client = new Client(
    { name: 'packed', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } },
  );
  try {
    await client.connect(new StreamableHTTPClientTransport(url));
    const read = await client.readResource({ uri: 'ui://mcp-resolve/question' });
    const [content] = read.contents;
    const html = content !== undefined && 'text' in content ? content.text : '';
    const ok = html.startsWith('<!doctype html>') && html.includes('const App=');
    record(
      'workerd',
      'question app',
      ok ? 1 : 0,
      ok ? 0 : 1,
      `ui://mcp-resolve/question read ${html.length} characters`,
    );
  } finally {
    await client.close();
  }
}

async function stopAll(): Promise<void> {
  await Promise.all(children.map((child) => stopChild(child, 5_000)));
}

async function main(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-resolve-packed-'));
  const onSignal = () =>
    void stopAll().then(() => rm(dir, { recursive: true, force: true }).finally(() => process.exit(130)));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const app = join(dir, 'app');
  try {
    await install(dir, app);
    const keys = randomBytes(32).toString('hex');
    const env = { ...process.env, MCP_REQUEST_STATE_KEYS: keys, PORT: '0', DENO_NO_UPDATE_CHECK: '1' };
    const tsconfig = join(app, 'tsconfig.json');
    await bundleWorker(join(app, 'worker.ts'), join(dir, 'worker.js'), tsconfig);
    await bundleWorker(join(app, 'apps.js'), join(dir, 'apps.js'), tsconfig);
    await bundleModule(join(app, 'deno.ts'), join(app, 'deno.js'), {
      conditions: ['deno', 'import'],
      external: ['node:*'],
      tsconfig,
    });
    const ports = { desk: await freePort(), apps: await freePort() };
    await writeFile(join(dir, 'config.capnp'), workerdConfig(ports, keys));
    const workerd = new URL(`http://127.0.0.1:${ports.desk}/mcp`);
    const appsUrl = new URL(`http://127.0.0.1:${ports.apps}/mcp`);
    const [bun, deno] = await Promise.all([
      start('bun', join(ROOT, 'node_modules/.bin/bun'), [join(app, 'bun.ts')], app, env),
      start(
        'deno',
        join(ROOT, 'node_modules/.bin/deno'),
        ['run', '--allow-net', '--allow-env', '--no-prompt', join(app, 'deno.js')],
        app,
        env,
      ),
      startWorkerd(join(dir, 'config.capnp'), [workerd, appsUrl], {
        onOutput: (text) => log(`[workerd] ${text}`),
        onSpawn: (child) => children.push(child),
      }),
    ]);
    await story('workerd', 'modern', workerd);
    await questionApp(appsUrl);
    for (const [runtime, url] of [
      ['bun', bun],
      ['deno', deno],
    ] as const) {
      await story(runtime, 'modern', url);
      await story(runtime, 'legacy', url);
    }
    await npm(app, ['install', '@modelcontextprotocol/node']);
    await bundleModule(join(app, 'node.ts'), join(app, 'node.js'), {
      conditions: ['node', 'import'],
      external: ['node:*', 'mcp-resolve', 'mcp-resolve/*', 'zod'],
      tsconfig,
    });
    const node = await start('node', process.execPath, [join(app, 'node.js')], app, env);
    await story('node', 'modern', node);
    await story('node', 'legacy', node);
  } catch (error) {
    record('setup', '-', 0, 1, error instanceof Error ? (error.stack ?? error.message) : String(error));
  } finally {
    await stopAll();
    await rm(dir, { recursive: true, force: true });
  }
  for (const line of lines)
    console.log(`runtimes:packed ${line.runtime} ${line.era}: ${line.passed} passed, ${line.failed} failed`);
  return lines.some((line) => line.failed > 0) || lines.length === 0 ? 1 : 0;
}

process.exitCode = await main();
