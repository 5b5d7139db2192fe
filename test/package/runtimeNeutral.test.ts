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

/** Makes every optional peer (and its subpaths) unresolvable, as in an install without them. */
const withoutOptionalPeers: Plugin = {
  name: 'without-optional-peers',
  setup(bundler) {
    bundler.onResolve({ filter: /.*/ }, ({ path }) =>
      OPTIONAL_PEERS.some((peer) => path === peer || path.startsWith(`${peer}/`))
        ? { errors: [{ text: `${path} is not installed` }] }
        : undefined,
    );
  },
};

/** Bundles an entry for a Web platform and returns the import paths esbuild could not resolve. */
async function unresolvedImports(path: string, plugins: Plugin[] = []): Promise<string[]> {
  const result = await build({
    entryPoints: [entry(path)],
    plugins,
    bundle: true,
    write: false,
    platform: 'neutral',
    format: 'esm',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser', 'import'],
    logLevel: 'silent',
  }).catch((error: unknown) => {
    if (typeof error === 'object' && error !== null && 'errors' in error && Array.isArray(error.errors)) {
      return { errors: error.errors as { text: string }[] };
    }
    throw error;
  });
  return result.errors.map((error) => error.text);
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
    'bundles %s with no optional peer installed (mcp-resolve/otel, made for its peer, needs it)',
    async (path) => {
      const missingPeers = async (bundled: string) =>
        (await unresolvedImports(bundled, [withoutOptionalPeers])).filter((text) => text.endsWith('is not installed'));
      expect(await missingPeers(path)).toEqual([]);
      expect(await missingPeers('otel/index.ts')).toEqual(['@opentelemetry/api is not installed']);
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
