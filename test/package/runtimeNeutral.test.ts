/**
 * The root entry `mcp-resolve` bundles for a Web platform with no unresolved import: esbuild, with
 * `platform: 'neutral'` and the conditions a Worker bundler uses, must resolve every module from
 * the package and its dependencies without a single `node:*` built-in. `mcp-resolve/node` is where
 * Node hosting lives, and the same bundle of it must need Node.
 */
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const entry = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

/** Bundles an entry for a Web platform and returns the import paths esbuild could not resolve. */
async function unresolvedImports(path: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry(path)],
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
