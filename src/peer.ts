/**
 * Optional peer dependencies: the one way the library loads one, so a missing package costs one
 * line naming the install to run instead of the loader's `Cannot find package '…'`, and so no
 * bundler fails on a peer the application did not install.
 */
import { McpResolveError } from './errors.js';

/** Whether `error` is the module loader's "not found" for the package `name` itself (not one of its own imports). */
function isMissing(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    (error.message.includes(`'${name}'`) || error.message.includes(`"${name}"`))
  );
}

/** `import(specifier)` with the specifier in a variable: bundlers (esbuild, Bun, Deno) leave it to the runtime. */
function importAtRunTime(specifier: string): Promise<unknown> {
  return import(/* @vite-ignore */ specifier);
}

/**
 * Loads the optional peer `name` (a package or one of its subpaths). When it is not installed,
 * rejects with `invalid_usage`: "`<api>` needs the peer dependency <name>: npm install <name>"; any
 * other failure passes through unchanged.
 *
 * Without `load`, the specifier is imported at run time, out of every bundler's sight: the form for
 * code an entry without the peer reaches (`loadPeer<typeof Jose>('jose', api)`). `load`, a literal
 * `() => import('<name>')` that bundlers follow, is only for code that no entry but the one made for
 * that peer reaches (`mcp-resolve/redis` loads `redis` so).
 */
export async function loadPeer<TModule>(name: string, api: string, load?: () => Promise<TModule>): Promise<TModule> {
  try {
    return await (load ?? (() => importAtRunTime(name) as Promise<TModule>))();
  } catch (error) {
    const pkg = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : (name.split('/')[0] ?? name);
    if (!isMissing(error, name) && !isMissing(error, pkg)) throw error;
    throw new McpResolveError('invalid_usage', `${api} needs the peer dependency ${pkg}: npm install ${pkg}`, {
      data: { api },
      cause: error,
    });
  }
}
