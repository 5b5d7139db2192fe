/**
 * workerd for the scripts and the tests: bundling a module the way a Worker bundler does,
 * the capnp lines of a Durable Object namespace for the replay guard (in-memory storage), and
 * starting `workerd serve` until every socket answers.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The export conditions a Worker bundler (wrangler) resolves with. */
export const WORKER_CONDITIONS = ['workerd', 'worker', 'browser', 'import'];

/** Bundles an entry to one ESM file for a Web platform with `conditions`; `external` imports stay imports. */
export async function bundleModule(
  entry: string,
  outfile: string,
  options: { conditions: string[]; external?: string[]; tsconfig?: string },
): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    mainFields: ['module', 'main'],
    conditions: options.conditions,
    external: options.external ?? [],
    logLevel: 'error',
    tsconfig: options.tsconfig ?? join(ROOT, 'tsconfig.json'),
  });
}

/** Bundles a Worker module with the Worker conditions, and no import left (`tsconfig` resolves `mcp-resolve/*`). */
export async function bundleWorker(entry: string, outfile: string, tsconfig?: string): Promise<void> {
  await bundleModule(entry, outfile, { conditions: WORKER_CONDITIONS, ...(tsconfig !== undefined && { tsconfig }) });
}

/** The lines of a `Workerd.Worker` declaring a Durable Object namespace of its class `className`, on in-memory storage. */
export function durableObjectNamespace(className: string): string {
  return `durableObjectNamespaces = [ (className = "${className}", uniqueKey = "${className}") ],
  durableObjectStorage = (inMemory = void),`;
}

/** A binding `name` to the namespace of `className`: the Worker's own, or that of the Worker service `service`. */
export function durableObjectBinding(name: string, className: string, service?: string): string {
  const target = service === undefined ? `"${className}"` : `(className = "${className}", serviceName = "${service}")`;
  return `(name = "${name}", durableObjectNamespace = ${target})`;
}

/** A running `workerd serve`. */
export interface Workerd {
  readonly child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
}

/** Options of {@link startWorkerd}. */
export interface StartWorkerdOptions {
  /** Receives what workerd prints, chunk by chunk. */
  readonly onOutput?: (text: string) => void;
  /** Receives the process as soon as it is spawned (to stop it on any exit path). */
  readonly onSpawn?: (child: ChildProcess) => void;
}

/** Starts `workerd serve <config>` and resolves once every URL answers HTTP (60 s at most). */
export async function startWorkerd(
  config: string,
  urls: readonly URL[],
  options: StartWorkerdOptions = {},
): Promise<Workerd> {
  const child = spawn(join(ROOT, 'node_modules/.bin/workerd'), ['serve', config, '--verbose'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onSpawn?.(child);
  let seen = '';
  const collect = (chunk: Buffer) => {
    seen += chunk.toString('utf8');
    options.onOutput?.(chunk.toString('utf8').trimEnd());
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const workerd = { child, output: () => seen };
  const deadline = Date.now() + 60_000;
  for (const url of urls) {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`workerd exited with code ${child.exitCode}:\n${seen}`);
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`workerd did not answer on ${url.href} within 60 s:\n${seen}`);
      }
      const answered = await fetch(url, { method: 'GET' }).then(
        () => true,
        () => false,
      );
      if (answered) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return workerd;
}
