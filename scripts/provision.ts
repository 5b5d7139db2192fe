/**
 * Provisions what the tests need before `npm test` runs them: the Debian binaries redis-server,
 * redis-sentinel, nginx, `script` (util-linux, package bsdutils) and chromium (the browser the
 * answer page tests drive through playwright-core; never a downloaded build) and openssl (the managed-Redis
 * tests' throwaway certificates). Missing ones are installed with
 * apt-get when running as root; otherwise it fails at once with the exact command to run.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A binary the tests run and the Debian package that ships it. */
export interface Requirement {
  readonly binary: string;
  readonly aptPackage: string;
}

/** What the tests need from the machine. */
export const REQUIREMENTS: readonly Requirement[] = [
  { binary: 'redis-server', aptPackage: 'redis-server' },
  { binary: 'redis-sentinel', aptPackage: 'redis-sentinel' },
  { binary: 'nginx', aptPackage: 'nginx' },
  { binary: 'script', aptPackage: 'bsdutils' },
  { binary: 'chromium', aptPackage: 'chromium' },
  { binary: 'openssl', aptPackage: 'openssl' },
];

/** The directories searched: PATH plus the sbin directories Debian keeps nginx in. */
export function searchDirs(path: string): string[] {
  const dirs = path.split(delimiter).filter((dir) => dir !== '');
  for (const dir of ['/usr/sbin', '/usr/local/sbin', '/sbin']) if (!dirs.includes(dir)) dirs.push(dir);
  return dirs;
}

/** The requirements whose binary is in none of `dirs`. */
export function missingRequirements(dirs: readonly string[], requirements = REQUIREMENTS): Requirement[] {
  return requirements.filter((requirement) => !dirs.some((dir) => isExecutable(join(dir, requirement.binary))));
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What to do about the missing requirements. */
export type Plan =
  | { readonly kind: 'ready' }
  | { readonly kind: 'install'; readonly announce: string; readonly commands: readonly (readonly string[])[] }
  | { readonly kind: 'refuse'; readonly message: string };

/** The apt-get command line that installs `missing`. */
export function installCommand(missing: readonly Requirement[]): string {
  return `apt-get update && apt-get install -y ${aptPackages(missing).join(' ')}`;
}

function aptPackages(missing: readonly Requirement[]): string[] {
  return [...new Set(missing.map((requirement) => requirement.aptPackage))];
}

/** Decides from what is missing, whether we are root and whether apt-get exists. */
export function plan(missing: readonly Requirement[], isRoot: boolean, hasAptGet: boolean): Plan {
  if (missing.length === 0) return { kind: 'ready' };
  const binaries = missing.map((requirement) => requirement.binary).join(', ');
  const command = installCommand(missing);
  const packages = aptPackages(missing);
  if (!isRoot || !hasAptGet) {
    const why = isRoot ? 'apt-get is not available' : 'not running as root, so it cannot install them';
    return { kind: 'refuse', message: `npm test needs ${binaries}, not installed (${why}). As root, run: ${command}` };
  }
  return {
    kind: 'install',
    announce: `npm test: installing ${packages.join(' ')} with apt-get (missing: ${binaries})`,
    commands: [
      ['apt-get', 'update', '-qq'],
      ['apt-get', 'install', '-y', '-qq', ...packages],
    ],
  };
}

function main(): number {
  const dirs = searchDirs(process.env.PATH ?? '');
  const missing = missingRequirements(dirs);
  const isRoot = process.getuid?.() === 0;
  const decided = plan(
    missing,
    isRoot,
    missingRequirements(dirs, [{ binary: 'apt-get', aptPackage: 'apt' }]).length === 0,
  );
  if (decided.kind === 'ready') return 0;
  if (decided.kind === 'refuse') {
    console.error(decided.message);
    return 1;
  }
  console.log(decided.announce);
  for (const [command, ...args] of decided.commands) {
    if (command === undefined) continue;
    const run = spawnSync(command, args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (run.status !== 0) {
      console.error(
        `npm test: \`${[command, ...args].join(' ')}\` failed (exit ${String(run.status)}); run it by hand to see why.`,
      );
      return 1;
    }
  }
  const still = missingRequirements(searchDirs(process.env.PATH ?? ''));
  if (still.length === 0) return 0;
  console.error(`npm test: still missing after apt-get: ${still.map((requirement) => requirement.binary).join(', ')}`);
  return 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
