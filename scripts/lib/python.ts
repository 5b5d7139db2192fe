/**
 * The official MCP Python SDK in a cached virtualenv for `npm run interop`: finds python3 (>= 3.10,
 * python3.11 preferred: some wheels on the package mirror are built for CPython 3.11 only), and
 * builds the venv again whenever the pinned requirements or the interpreter changed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the venv holds: the reference SDK, and the checker and test runner for our Python code. */
export const PYTHON_REQUIREMENTS = ['mcp==2.3.0', 'mypy==2.4.0', 'pytest==9.1.1'] as const;

/** The one line printed when no usable Python is installed. */
export const PYTHON_HINT =
  'npm run interop needs python3 >= 3.10 with venv (python3.11 preferred): apt-get install -y python3 python3-venv';

/** A ready virtualenv. */
export interface PythonEnv {
  /** The venv's interpreter. */
  readonly python: string;
  /** The venv's bin directory (mypy, pytest). */
  readonly bin: string;
}

/** The interpreter's `major.minor`, or undefined when it does not run. */
function versionOf(command: string): string | undefined {
  const run = spawnSync(command, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** The first of python3.11, python3 that is >= 3.10, or undefined. */
export function findPython(): { command: string; version: string } | undefined {
  for (const command of ['python3.11', 'python3']) {
    const version = versionOf(command);
    if (version === undefined) continue;
    const [major = 0, minor = 0] = version.split('.').map(Number);
    if (major > 3 || (major === 3 && minor >= 10)) return { command, version };
  }
  return undefined;
}

/** Runs a command with inherited output; throws naming it when it fails. */
function run(command: string, args: readonly string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${String(result.status)})`);
}

/**
 * The venv under `cacheDir`, made (or remade when its marker differs from the requirements and
 * interpreter) with pip from the configured index. pip gets no retries and a 30 s timeout, so an
 * unreachable index fails with pip's own error instead of hanging. Throws {@link PYTHON_HINT}.
 */
export function ensurePythonEnv(cacheDir: string): PythonEnv {
  const found = findPython();
  if (found === undefined) throw new Error(PYTHON_HINT);
  const venv = join(cacheDir, 'venv');
  const bin = join(venv, 'bin');
  const marker = join(venv, 'mcp-resolve-interop.txt');
  const wanted = `${found.command} ${found.version}\n${PYTHON_REQUIREMENTS.join('\n')}\n`;
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return { python: join(bin, 'python'), bin };
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  console.log(`interop: building ${venv} (${found.command} ${found.version}; ${PYTHON_REQUIREMENTS.join(', ')})`);
  const made = spawnSync(found.command, ['-m', 'venv', venv], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`${PYTHON_HINT} (venv failed: ${made.stderr.trim().split('\n').pop() ?? ''})`);
  run(join(bin, 'pip'), ['install', '--quiet', '--retries', '0', '--timeout', '30', ...PYTHON_REQUIREMENTS]);
  writeFileSync(marker, wanted);
  return { python: join(bin, 'python'), bin };
}
