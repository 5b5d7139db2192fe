/**
 * Runs the test suite (vitest) and the refund desk on each supported Node line, with Node binaries
 * from the npm registry's `node` package, installed once per line into ~/.cache/mcp-resolve/node.
 * Usage: `npm run test:node [-- 22 24]` (default: 20 22 24). `--except-current` leaves out the line
 * of the Node running this script: CI passes it because `npm test` has just run the suite on it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** The Node major lines `engines` promises, oldest first. */
export const LINES = ['20', '22', '24'] as const;

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

function runLine(line: string): LineResult {
  const node = ensureNode(line);
  // Children that start `node` by name (tsx, vitest forks, story servers) get this line's binary too.
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const started = Date.now();
  console.log(`\n=== Node ${version}: vitest run ===`);
  const tests = run(node, ['node_modules/vitest/vitest.mjs', 'run'], env);
  console.log(`\n=== Node ${version}: npm start (the refund desk) ===`);
  const desk = run(node, ['node_modules/tsx/dist/cli.mjs', 'examples/stories/refund-desk/start.ts'], env);
  return { line, version, tests, desk, seconds: Math.round((Date.now() - started) / 1000) };
}

function main(args: readonly string[]): number {
  run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], process.env); // the docs check reads dist/
  const exceptCurrent = args.includes('--except-current');
  const asked = args.filter((arg) => arg !== '--except-current');
  const current = process.versions.node.split('.')[0];
  const lines = (asked.length > 0 ? asked : LINES).filter((line) => !(exceptCurrent && line === current));
  if (exceptCurrent)
    console.log(`test:node: leaving out Node ${process.version}, the running Node (npm test ran on it)`);
  const results = lines.map(runLine);
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
