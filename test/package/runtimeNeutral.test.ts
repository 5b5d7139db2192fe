/**
 * The root entry `mcp-resolve` bundles for a Web platform with no unresolved import: esbuild, with
 * `platform: 'neutral'` and the conditions a Worker bundler uses, must resolve every module from
 * the package and its dependencies without a single `node:*` built-in. `mcp-resolve/node` is where
 * Node hosting lives, and the same bundle of it must need Node. The runtime-neutral entries also
 * bundle with every optional peer missing, as for a user who installed only the required peers.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { Plugin } from 'esbuild';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const entry = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

/** The optional peers (package.json `peerDependenciesMeta`). */
const OPTIONAL_PEERS = Object.keys(
  (
    JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as {
      peerDependenciesMeta: Record<string, unknown>;
    }
  ).peerDependenciesMeta,
);

/**
 * Makes every optional peer (and its subpaths) unresolvable, as in an install without them: a static
 * import of one fails the bundle; a dynamic `import()` is left to the runtime, as esbuild leaves an
 * unresolvable `import('<peer>').catch(…)` (test/architecture/optionalPeers.test.ts refuses a literal
 * `import()` of a peer without `.catch()` outside its entry; `npm run runtimes:packed` bundles a real
 * install without the peers).
 */
const withoutOptionalPeers: Plugin = {
  name: 'without-optional-peers',
  setup(bundler) {
    bundler.onResolve({ filter: /.*/ }, ({ path, kind }) => {
      if (!OPTIONAL_PEERS.some((peer) => path === peer || path.startsWith(`${peer}/`))) return undefined;
      return kind === 'dynamic-import' ? { path, external: true } : { errors: [{ text: `${path} is not installed` }] };
    });
  },
};

/** Bundles an entry for a Web platform: the import paths esbuild could not resolve, and the ones it left to the runtime. */
async function bundleOf(path: string, plugins: Plugin[] = []): Promise<{ errors: string[]; external: string[] }> {
  const result = await build({
    entryPoints: [entry(path)],
    plugins,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'neutral',
    format: 'esm',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser', 'import'],
    logLevel: 'silent',
  }).catch((error: unknown) => {
    if (typeof error === 'object' && error !== null && 'errors' in error && Array.isArray(error.errors)) {
      return { errors: error.errors as { text: string }[], metafile: undefined };
    }
    throw error;
  });
  const outputs = Object.values(result.metafile?.outputs ?? {});
  const external = outputs.flatMap((output) => output.imports.filter((item) => item.external).map((item) => item.path));
  return { errors: result.errors.map((error) => error.text), external };
}

/** The import paths esbuild could not resolve bundling `path`. */
async function unresolvedImports(path: string, plugins: Plugin[] = []): Promise<string[]> {
  return (await bundleOf(path, plugins)).errors;
}

describe('runtime-neutral root entry', () => {
  it('bundles mcp-resolve for a Web platform with no unresolved import', async () => {
    expect(await unresolvedImports('index.ts')).toEqual([]);
  });

  it('bundles mcp-resolve/contracts for a Web platform with no unresolved import', async () => {
    expect(await unresolvedImports('contracts/index.ts')).toEqual([]);
  });

  it('bundles mcp-resolve/workers for a Web platform with no unresolved import', async () => {
    expect(await unresolvedImports('workers/index.ts')).toEqual([]);
  });

  it.each(['index.ts', 'contracts/index.ts', 'workers/index.ts', 'mrtr/index.ts'])(
    'bundles %s with no optional peer installed (mcp-resolve/otel, made for its peer, loads it)',
    async (path) => {
      const missingPeers = (await unresolvedImports(path, [withoutOptionalPeers])).filter((text) =>
        text.endsWith('is not installed'),
      );
      expect(missingPeers).toEqual([]);
      expect((await bundleOf('otel/index.ts', [withoutOptionalPeers])).external).toContain('@opentelemetry/api');
    },
  );

  it('keeps Node hosting in mcp-resolve/node, which does need node:*', async () => {
    const unresolved = await unresolvedImports('node/index.ts');
    expect(unresolved).toContain('Could not resolve "node:http"');
  });

  it('never loads @opentelemetry/api from the root entry; mcp-resolve/otel does, and stays neutral', async () => {
    const inputsOf = async (path: string) =>
      Object.keys(
        (
          await build({
            entryPoints: [entry(path)],
            bundle: true,
            write: false,
            metafile: true,
            platform: 'neutral',
            format: 'esm',
            mainFields: ['module', 'main'],
            conditions: ['workerd', 'worker', 'browser', 'import'],
            logLevel: 'silent',
          })
        ).metafile.inputs,
      );
    expect((await inputsOf('index.ts')).filter((input) => input.includes('@opentelemetry'))).toEqual([]);
    expect((await inputsOf('otel/index.ts')).some((input) => input.includes('@opentelemetry/api'))).toBe(true);
    expect(await unresolvedImports('otel/index.ts')).toEqual([]);
  });
});
