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

/**
 * Rethrows `error`. Written as `import('<peer>').catch(peerMissing)`, it tells esbuild the import
 * may fail at run time: esbuild then bundles the peer where it is installed and leaves the import to
 * the runtime where it is not (an unresolvable literal `import()` without it fails the whole bundle).
 */
export function peerMissing(error: unknown): never {
  throw error;
}

/**
 * Loads the optional peer `name` (a package or one of its subpaths) through `load`, a literal
 * `() => import('<name>')`. When it is not installed, rejects with `invalid_usage`: "`<api>` needs
 * the peer dependency <name>: npm install <name>"; any other failure passes through unchanged.
 *
 * In the entry made for the peer (`mcp-resolve/redis` loads `redis`), `load` is the plain import;
 * in code any other entry reaches, it is `() => import('<name>').catch(peerMissing)`, so bundling
 * that entry without the peer still works (see {@link peerMissing}).
 */
export async function loadPeer<TModule>(name: string, api: string, load: () => Promise<TModule>): Promise<TModule> {
  try {
    return await load();
  } catch (error) {
    const pkg = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : (name.split('/')[0] ?? name);
    if (!isMissing(error, name) && !isMissing(error, pkg)) throw error;
    throw new McpResolveError('invalid_usage', `${api} needs the peer dependency ${pkg}: npm install ${pkg}`, {
      data: { api },
      cause: error,
    });
  }
}
