/**
 * `npm run attack`: what a hostile client can make the built package hold or do, tried as an
 * attacker would, against dist/ on loopback with real redis-server and nginx, and for the `oauth` and
 * page sign-in cases an authorization server of its own (scripts/attack/issuer.ts: jose keys).
 *
 * Each case (scripts/attack/<area>.ts) runs against servers on their default options unless the case
 * is about an option, is bounded in count and time, and stops its processes when it ends. The run
 * prints one line per check (`ok`/`FAIL` name: measured figure vs limit) and `attack: N passed, M
 * failed`, exits non-zero on any failure, and tears everything down on every exit path.
 *
 *   npm run attack                  # builds dist/ first when src/ is newer
 *   npm run attack -- --only relay  # only cases whose name contains "relay"
 *   npm run attack -- --build       # always rebuild dist/
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { INSTALL_HINT, findBinary } from './lib/processes.js';
import { answerCases } from './attack/answers.js';
import { attemptCases } from './attack/attempts.js';
import { clientCodeCases } from './attack/clientCode.js';
import type { Case, Outcome } from './attack/harness.js';
import { Scope, buildServer, children } from './attack/harness.js';
import { laneCases } from './attack/lane.js';
import { oauthCases } from './attack/oauth.js';
import { pageCases } from './attack/pages.js';
import { relayCases } from './attack/relay.js';
import { replayCases } from './attack/replay.js';
import { sessionBindingCases } from './attack/sessionBinding.js';
import { sessionCases } from './attack/sessions.js';
import { signInCases } from './attack/signIn.js';
import { taskCases } from './attack/tasks.js';

const { values: flags } = parseArgs({ options: { only: { type: 'string' }, build: { type: 'boolean' } } });
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const CASES: readonly Case[] = [
  ...replayCases,
  ...sessionCases,
  ...sessionBindingCases,
  ...relayCases,
  ...taskCases,
  ...answerCases,
  ...pageCases,
  ...laneCases,
  ...clientCodeCases,
  ...attemptCases,
  ...oauthCases,
  ...signInCases,
];

const dir = mkdtempSync(join(tmpdir(), 'mcp-resolve-attack-'));
let passed = 0;
let failed = 0;
let current: Scope | undefined;

function report(result: Outcome): void {
  if (result.ok) passed += 1;
  else failed += 1;
  console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name}: ${result.figure}`);
}

let tornDown = false;
async function teardown(): Promise<void> {
  if (tornDown) return;
  tornDown = true;
  await current?.close();
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
process.on('exit', () => {
  // Last resort: nothing the run started may outlive it.
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\nattack: ${signal}, tearing down`);
    void teardown().finally(() => process.exit(130));
  });
}

/** The newest mtime under `path` (files only). */
function newest(path: string): number {
  let latest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** Builds dist/ when asked, missing, or older than src/. */
function ensureBuilt(): void {
  const built = join(ROOT, 'dist', 'index.js');
  if (!flags.build && existsSync(built) && statSync(built).mtimeMs >= newest(join(ROOT, 'src'))) return;
  console.log('attack: building dist/ (npm run build)');
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error(`npm run build failed (${String(build.status)})`);
}

async function runCase(attack: Case): Promise<void> {
  const scope = new Scope(dir);
  current = scope;
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${attack.timeoutMs} ms`)), attack.timeoutMs);
  });
  try {
    for (const result of await Promise.race([attack.run(scope), timeout])) report(result);
  } catch (error) {
    report({ name: attack.name, ok: false, figure: error instanceof Error ? error.message : String(error) });
  } finally {
    clearTimeout(timer);
    await scope.close();
    current = undefined;
    if (process.env.ATTACK_TIMES) console.log(`     (${attack.name}: ${Math.round(performance.now() - started)} ms)`);
  }
}

async function main(): Promise<void> {
  const missing = ['redis-server', 'nginx'].filter((name) => findBinary(name) === undefined);
  if (missing.length > 0) throw new Error(`${missing.join(' and ')} not found. Install with: ${INSTALL_HINT}`);
  ensureBuilt();
  await buildServer();
  const started = performance.now();
  for (const attack of CASES) {
    if (flags.only !== undefined && !attack.name.includes(flags.only)) continue;
    await runCase(attack);
  }
  console.log(`attack: ran in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

try {
  await main();
} catch (error) {
  failed += 1;
  console.error(`attack: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await teardown();
}
console.log(`attack: ${passed} passed, ${failed} failed`);
// Exit even if a client of a stopped backend still holds the event loop.
process.exit(failed > 0 ? 1 : 0);
