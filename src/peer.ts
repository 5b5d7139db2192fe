/**
 * Optional peer dependencies, loaded by the one entry that needs each, so a missing package costs
 * one line naming the install to run instead of Node's `Cannot find package '…'`.
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
 * Loads the optional peer `name` through `load` (a literal `import('…')`, so bundlers see it). When
 * it is not installed, rejects with `invalid_usage`: "`<api>` needs the peer dependency <name>: npm
 * install <name>"; any other failure passes through unchanged.
 */
export async function loadPeer<TModule>(load: () => Promise<TModule>, name: string, api: string): Promise<TModule> {
  try {
    return await load();
  } catch (error) {
    if (!isMissing(error, name)) throw error;
    throw new McpResolveError('invalid_usage', `${api} needs the peer dependency ${name}: npm install ${name}`, {
      data: { api },
      cause: error,
    });
  }
}
