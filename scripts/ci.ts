/**
 * The CI steps after `npm ci` (.ci/run), each once, side by side where they do not depend on one
 * another: up to `CI_JOBS` (default 2) at a time, in the order listed, a step starting when the
 * steps it needs have passed. Each step's output goes to `.ci/logs/<step>.log` and is printed
 * whole, under a `::: <step>` header, when the step ends, so parallel output never interleaves.
 * The end is, for each failed step, an excerpt of its log (vitest's "Failed Tests" section, else the
 * log's last lines), then a table of every step's time and verdict, so whoever reads only the end of
 * the output still sees what failed; the exit code is non-zero when any step failed.
 *
 * dist/ is built once (`build`); the steps that read it (`api:check`, `pack:check`, the suites,
 * `runtimes`, `runtimes:packed`, `attack`, `fuzz`, `bench`) use that build. The project is type-checked once (`typecheck`, which also
 * checks the type tests `*.test-d.ts`). The whole suite runs once on the Node running this script
 * (.ci/run puts a supported line first on PATH); `node-lines` runs on the other supported lines
 * only what can differ by Node line (the unit and integration projects and the refund desk).
 *
 * Usage: tsx scripts/ci.ts [--only step,step] [--lines 22]   (CI_JOBS=1 runs them in series)
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface Step {
  readonly name: string;
  readonly command: readonly string[];
  readonly needs: readonly string[];
}

interface Outcome {
  readonly name: string;
  readonly seconds: number;
  readonly verdict: 'pass' | 'FAIL' | 'skipped';
  readonly detail: string;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LOGS = join(ROOT, '.ci', 'logs');
const TSX = ['node', join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs')];

/** The steps, longest first among those ready together, so the critical path starts early. */
function steps(otherLines: readonly string[]): Step[] {
  return [
    { name: 'provision', command: [...TSX, 'scripts/provision.ts'], needs: [] },
    { name: 'build', command: ['npm', 'run', 'build'], needs: [] },
    { name: 'typecheck', command: ['npm', 'run', 'typecheck'], needs: [] },
    { name: 'suite', command: ['node', 'node_modules/vitest/vitest.mjs', 'run'], needs: ['provision', 'build'] },
    {
      name: 'node-lines',
      command: [...TSX, 'scripts/testNode.ts', '--line-dependent', ...otherLines],
      needs: ['provision', 'build'],
    },
    { name: 'chaos', command: ['npm', 'run', 'chaos'], needs: ['provision'] },
    { name: 'interop', command: ['npm', 'run', 'interop'], needs: [] },
    { name: 'fleet', command: ['npm', 'run', 'fleet'], needs: ['provision'] },
    { name: 'attack', command: ['npm', 'run', 'attack'], needs: ['provision', 'build'] },
    { name: 'fuzz', command: ['npm', 'run', 'fuzz'], needs: ['build'] },
    { name: 'runtimes', command: [...TSX, 'scripts/runtimes.ts'], needs: ['build'] },
    { name: 'runtimes:packed', command: [...TSX, 'scripts/packedRuntimes.ts'], needs: ['build'] },
    { name: 'conformance', command: ['npm', 'run', 'conformance'], needs: [] },
    { name: 'lint', command: ['npm', 'run', 'lint'], needs: [] },
    { name: 'docs', command: ['npm', 'run', 'docs'], needs: [] },
    { name: 'api:check', command: [...TSX, 'scripts/api.ts'], needs: ['build'] },
    { name: 'pack:check', command: ['bash', 'scripts/packCheck.sh', '--no-build'], needs: ['build'] },
    { name: 'bench', command: ['npm', 'run', 'bench', '--', '--quick'], needs: ['build'] },
  ];
}

/** The file under .ci/logs/ a step's output goes to. */
function logName(step: string): string {
  return `${step.replace(/[^a-z0-9-]/gi, '_')}.log`;
}

/** Lines of an excerpt of a failed step's log. */
const EXCERPT_LINES = 45;

/** What a failed step's log says of the failure: vitest's first "Failed Tests" or "Failed Suites" section when there is one, else its last lines. */
function failureExcerpt(log: string): string {
  const lines = log.split('\n');
  const section = lines.findIndex((line) => /⎯ Failed (Tests|Suites) \d+ ⎯/.test(line));
  const excerpt = section === -1 ? lines.slice(-EXCERPT_LINES) : lines.slice(section, section + EXCERPT_LINES);
  return excerpt.join('\n');
}

function run(step: Step): Promise<Outcome> {
  const started = Date.now();
  const logPath = join(LOGS, logName(step.name));
  const log = createWriteStream(logPath);
  console.log(`::: ${step.name} started: ${step.command.join(' ')}`);
  return new Promise((resolve) => {
    const [command = '', ...args] = step.command;
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const finish = (verdict: Outcome['verdict'], detail: string): void => {
      log.end(() => {
        const seconds = Math.round((Date.now() - started) / 1000);
        console.log(`\n::: ${step.name} (${String(seconds)} s, ${verdict}${detail === '' ? '' : `: ${detail}`})`);
        process.stdout.write(readFileSync(logPath, 'utf8'));
        console.log(`::: ${step.name} took ${String(seconds)} s`);
        resolve({ name: step.name, seconds, verdict, detail });
      });
    };
    child.on('error', (error) => finish('FAIL', error.message));
    child.on('close', (code, signal) =>
      finish(code === 0 ? 'pass' : 'FAIL', code === 0 ? '' : `exit ${String(code ?? signal)}`),
    );
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, lines: { type: 'string' } } });
  const current = process.versions.node.split('.')[0] ?? '';
  const otherLines = (values.lines ?? ['22', '24'].filter((line) => line !== current).join(',')).split(',');
  const only = values.only?.split(',');
  const all = steps(otherLines);
  const planned = only === undefined ? all : all.filter((step) => only.includes(step.name));
  const jobs = Number(process.env.CI_JOBS ?? '2');
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new Error(`ci: CI_JOBS must be a whole number >= 1 (got ${String(process.env.CI_JOBS)})`);
  mkdirSync(LOGS, { recursive: true });
  console.log(
    `ci: ${String(planned.length)} steps, ${String(jobs)} at a time, on Node ${process.version}; logs in .ci/logs/`,
  );

  const started = Date.now();
  const outcomes = new Map<string, Outcome>();
  const running = new Map<string, Promise<Outcome>>();
  const waiting = [...planned];
  const plannedNames = new Set(planned.map((step) => step.name));
  while (waiting.length > 0 || running.size > 0) {
    for (const step of [...waiting]) {
      const needs = step.needs.filter((need) => plannedNames.has(need));
      const failed = needs.find((need) => outcomes.has(need) && outcomes.get(need)?.verdict !== 'pass');
      if (failed !== undefined) {
        waiting.splice(waiting.indexOf(step), 1);
        outcomes.set(step.name, { name: step.name, seconds: 0, verdict: 'skipped', detail: `${failed} failed` });
        continue;
      }
      if (running.size >= jobs || !needs.every((need) => outcomes.has(need))) continue;
      waiting.splice(waiting.indexOf(step), 1);
      running.set(step.name, run(step));
    }
    if (running.size === 0) continue;
    const done = await Promise.race(running.values());
    running.delete(done.name);
    outcomes.set(done.name, done);
  }

  const total = Math.round((Date.now() - started) / 1000);
  for (const outcome of outcomes.values()) {
    if (outcome.verdict !== 'FAIL') continue;
    console.log(`\n::: ${outcome.name} failed; from its log (.ci/logs/${logName(outcome.name)}):`);
    console.log(failureExcerpt(readFileSync(join(LOGS, logName(outcome.name)), 'utf8')));
  }
  console.log(`\nci: step table (${String(jobs)} at a time, Node ${process.version})`);
  for (const step of planned) {
    const outcome = outcomes.get(step.name);
    if (outcome === undefined) continue;
    const detail = outcome.detail === '' ? '' : ` (${outcome.detail})`;
    console.log(`  ${step.name.padEnd(12)} ${String(outcome.seconds).padStart(5)} s  ${outcome.verdict}${detail}`);
  }
  console.log(`  ${'wall'.padEnd(12)} ${String(total).padStart(5)} s`);
  return [...outcomes.values()].every((outcome) => outcome.verdict === 'pass') ? 0 : 1;
}

process.exitCode = await main();
