/**
 * The `answerPage` option of the HTTP hosts: one store, one page handler and the questions layer's
 * view of them ({@link FormPages}), built once per host from the option.
 */
import type { FormPages } from '../questions/pages.js';
import type { AnswerPageBackend } from './backend.js';
import type { BrowserUser } from './browserUser.js';
import { createFormPages } from './formPages.js';
import type { AnswerPageHandler } from './handler.js';
import { createAnswerPageHandler, DEFAULT_ANSWER_PAGE_PATH } from './handler.js';
import { createAnswerPageStore } from './store.js';

/** The `answerPage` option of `createDualEraHandler()` and `serveHttp()`. */
export interface AnswerPageHostingOptions {
  /** The path pages are served under, as `<path>/<pageId>` (beside the MCP path). @default '/mcp-resolve/answer' */
  readonly path?: string;
  /**
   * The origin of the links handed to people, e.g. `https://mcp.example.com` (needed behind a proxy
   * that terminates TLS, since links must be https). @default the origin of the MCP request that asked
   */
  readonly publicOrigin?: string;
  /** The key of the page's form tokens (32 bytes or more), the same on every instance of a fleet. @default 32 random bytes per process */
  readonly formSecret?: string | Uint8Array;
  /**
   * The browser's signed-in user by your own login (a session cookie): the `AuthInfo` your MCP
   * authentication gives that person, or `undefined`. When set, a page bound to a principal refuses
   * (403) anyone else. Returning the principal string itself still works (for a custom `principal`).
   * @default undefined — the unguessable link is the only key
   */
  readonly browserUser?: (request: Request) => BrowserUser | Promise<BrowserUser>;
  /** Where pages and answers are kept (a fleet: over Redis). @default in memory, at most 16 MiB */
  readonly backend?: AnswerPageBackend;
  /** How long a page stays open, and then how long its answer waits, in ms. @default 900_000 (15 minutes) */
  readonly ttlMs?: number;
}

/** A host's answer pages: the handler to route to, and what the questions layer is given. */
export interface HostedAnswerPages {
  /** Whether `request` is for a page (under the pages' path). */
  owns(request: Request): boolean;
  readonly serve: AnswerPageHandler;
  readonly pages: FormPages;
}

/** Builds a host's answer pages from its `answerPage` option. */
export function hostAnswerPages(options: AnswerPageHostingOptions, onerror: (error: Error) => void): HostedAnswerPages {
  const store = createAnswerPageStore({
    ...(options.backend !== undefined && { backend: options.backend }),
    ...(options.ttlMs !== undefined && { ttlMs: options.ttlMs }),
  });
  const path = options.path ?? DEFAULT_ANSWER_PAGE_PATH;
  const serve = createAnswerPageHandler({
    store,
    path,
    onerror,
    ...(options.formSecret !== undefined && { formSecret: options.formSecret }),
    ...(options.browserUser !== undefined && { browserUser: options.browserUser }),
  });
  return {
    owns: (request) => new URL(request.url).pathname.startsWith(`${path}/`),
    serve,
    pages: createFormPages({ store, path, publicOrigin: options.publicOrigin }),
  };
}
