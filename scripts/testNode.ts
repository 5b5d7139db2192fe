/**
 * Runs the test suite (vitest) and the refund desk on each supported Node line, with Node binaries
 * from the npm registry's `node` package, installed once per line into ~/.cache/mcp-resolve/node.
 * Usage: `npm run test:node [-- 22 24]` (default: 22 24). `--except-current` leaves out the line
 * of the Node running this script. `--line-dependent` runs only what can differ by Node line: the
 * `unit` and `integration` projects (the `package` project checks dist/, declarations and docs,
 * the same on every line); CI passes it for the lines other than the one the whole suite ran on.
 * With `--line-dependent`, dist/ (the integration project runs the built bin) is built only when missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** The Node major lines `engines` promises, oldest first. */
export const LINES = ['22', '24'] as const;

/** Where the cached binary of `line` lives. */
export function nodeBinary(line: string, cacheRoot = defaultCacheRoot()): string {
  return join(cacheRoot, line, 'node_modules', 'node', 'bin', 'node');
}

function defaultCacheRoot(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mcp-resolve', 'node');
}

/** Installs `node@<line>` from the npm registry into the cache unless it is there; returns the binary. */
function ensureNode(line: string): string {
  const binary = nodeBinary(line);
  if (existsSync(binary)) return binary;
  const prefix = join(defaultCacheRoot(), line);
  console.log(`test:node: installing node@${line} from the npm registry into ${prefix}`);
  run(
    'npm',
    ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `node@${line}`],
    process.env,
  );
  if (!existsSync(binary)) throw new Error(`test:node: npm installed node@${line} but ${binary} is missing`);
  return binary;
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv): number {
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.error !== undefined) throw result.error;
  return result.status ?? 1;
}

interface LineResult {
  readonly line: string;
  readonly version: string;
  readonly tests: number;
  readonly desk: number;
  readonly seconds: number;
}

function runLine(line: string, projects: readonly string[]): LineResult {
  const node = ensureNode(line);
  // Children that start `node` by name (tsx, vitest forks, story servers) get this line's binary too.
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const started = Date.now();
  const only = projects.flatMap((project) => ['--project', project]);
  console.log(`\n=== Node ${version}: vitest run ${only.join(' ')} ===`);
  const tests = run(node, ['node_modules/vitest/vitest.mjs', 'run', ...only], env);
  console.log(`\n=== Node ${version}: npm start (the refund desk) ===`);
  const desk = run(node, ['node_modules/tsx/dist/cli.mjs', 'examples/stories/refund-desk/start.ts'], env);
  return { line, version, tests, desk, seconds: Math.round((Date.now() - started) / 1000) };
}

function main(args: readonly string[]): number {
  const exceptCurrent = args.includes('--except-current');
  const projects = args.includes('--line-dependent') ? ['unit', 'integration'] : [];
  // The package project and the integration project's bin test read dist/; CI has just built it.
  if (projects.length === 0 || !existsSync('dist/node/ask/cli.js'))
    run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], process.env);
  const asked = args.filter((arg) => !arg.startsWith('--'));
  const current = process.versions.node.split('.')[0];
  const lines = (asked.length > 0 ? asked : LINES).filter((line) => !(exceptCurrent && line === current));
  if (exceptCurrent)
    console.log(`test:node: leaving out Node ${process.version}, the running Node (npm test ran on it)`);
  const results = lines.map((line) => runLine(line, projects));
  console.log('\ntest:node summary');
  for (const result of results) {
    const verdict = (code: number): string => (code === 0 ? 'pass' : `FAIL (exit ${String(code)})`);
    console.log(
      `  Node ${result.version}: tests ${verdict(result.tests)}, refund desk ${verdict(result.desk)} (${String(result.seconds)} s)`,
    );
  }
  return results.every((result) => result.tests === 0 && result.desk === 0) ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
