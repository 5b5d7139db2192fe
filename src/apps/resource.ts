/**
 * The question app's resource, `ui://mcp-resolve/question` (`text/html;profile=mcp-app`), listed
 * and read only on a server with the `apps` option. Its document is built once, at the first
 * read, from ext-apps' `App` bundle: the optional peer `@modelcontextprotocol/ext-apps`, loaded
 * then (one line naming the install when it is missing) and read from disk (Node, Bun, Deno); a
 * runtime without a file system (Cloudflare Workers) passes the bundle's text as `apps.appScript`.
 */
import type * as NodeFs from 'node:fs/promises';
import type * as NodeModule from 'node:module';

import type { McpServer, ReadResourceResult } from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import { loadPeer } from '../peer.js';
import { APPS_BUNDLE, questionAppHtml } from './appHtml.js';
import { APP_MIME_TYPE, QUESTION_APP_URI } from './wire.js';

/** The optional peer the app is built on. */
export const APPS_PEER = '@modelcontextprotocol/ext-apps';

/** The text of ext-apps' `app-with-deps` bundle, from the installed peer (Node, Bun, Deno). */
export async function installedAppBundle(api: string): Promise<string> {
  const server = await loadPeer(() => import('@modelcontextprotocol/ext-apps/server'), APPS_PEER, api);
  const mimeType: string = server.RESOURCE_MIME_TYPE;
  if (mimeType !== APP_MIME_TYPE) {
    throw new McpResolveError(
      'invalid_usage',
      `${api}: ${APPS_PEER} names the app MIME type '${mimeType}', not '${APP_MIME_TYPE}': install a version this release supports (2.x).`,
      { data: { api } },
    );
  }
  const files = installedFiles();
  if (files === undefined) {
    throw new McpResolveError(
      'invalid_usage',
      `${api}: this runtime has no file system to read ${APPS_BUNDLE} from: bundle that file as text and pass it as apps.appScript.`,
      { data: { api } },
    );
  }
  return files.readFile(files.createRequire(import.meta.url).resolve(APPS_BUNDLE), 'utf8');
}

/** `node:module` and `node:fs/promises` where the runtime has them (Node, Bun, Deno), got at run time so the core imports no built-in. */
function installedFiles(): (Pick<typeof NodeModule, 'createRequire'> & Pick<typeof NodeFs, 'readFile'>) | undefined {
  const host: { process?: { getBuiltinModule?: (id: string) => unknown } } = globalThis;
  const load = (id: string): object | undefined => {
    try {
      const loaded = host.process?.getBuiltinModule?.(id);
      return (typeof loaded === 'object' && loaded !== null) || typeof loaded === 'function' ? loaded : undefined; // node:module is a function
    } catch {
      return undefined;
    }
  };
  const module = load('node:module');
  const fs = load('node:fs/promises');
  if (module === undefined || fs === undefined || !('createRequire' in module) || !('readFile' in fs)) return undefined;
  return { createRequire: (module as typeof NodeModule).createRequire, readFile: (fs as typeof NodeFs).readFile };
}

/** Serves the resource: `document()` gives the app's HTML (built once by the caller). */
export function installQuestionApp(mcp: McpServer, document: () => Promise<string>): void {
  mcp.registerResource(
    'mcp-resolve question',
    QUESTION_APP_URI,
    {
      mimeType: APP_MIME_TYPE,
      description: 'Shows a question the server asks, as a form, and sends the answer.',
    },
    async (): Promise<ReadResourceResult> => ({
      contents: [
        {
          uri: QUESTION_APP_URI,
          mimeType: APP_MIME_TYPE,
          text: await document(),
          _meta: { ui: { prefersBorder: true } },
        },
      ],
    }),
  );
}

/** The app's document, built once from `bundle()` (a failure is not kept: the next read tries again). */
export function questionAppDocument(bundle: () => Promise<string>): () => Promise<string> {
  let built: Promise<string> | undefined;
  return () =>
    (built ??= bundle()
      .then(questionAppHtml)
      .catch((error: unknown) => {
        built = undefined;
        throw error;
      }));
}
