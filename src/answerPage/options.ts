/**
 * The `answerPage` option of `McpResolveServer`: one store, one page handler (served as an HTTP
 * route beside the MCP endpoint) and the two page channels over them, built once per server.
 */
import type { HttpRoute, ServerChannel } from '../channels/channel.js';
import { checkedPageBackend, invalidOption } from '../optionChecks.js';
import { LOOPBACK_HOSTS } from '../questions/urlQuestion.js';
import type { AnswerPageBackend } from '../pageStore/backend.js';
import type { BrowserUser } from './browserUser.js';
import { checkedPagePath, createAnswerPageHandler, DEFAULT_ANSWER_PAGE_PATH, formKey } from './handler.js';
import { pageLinkChannel } from './linkChannel.js';
import { createFormPages } from '../pageStore/pages.js';
import { createPageLinks } from './links.js';
import type { AnswerPageSignInOptions } from './signIn.js';
import { checkedSignIn } from './signIn.js';
import { createAnswerPageStore } from '../pageStore/store.js';
import { pageUrlChannel } from './urlChannel.js';

/** The `answerPage` option of `new McpResolveServer()`. */
export interface AnswerPageOptions {
  /** The path pages are served under, as `<path>/<pageId>` (beside the MCP path). @default '/mcp-resolve/answer' */
  readonly path?: string;
  /**
   * The origin of the links handed to people, e.g. `https://mcp.example.com` (needed behind a proxy
   * that terminates TLS, since links must be https): https, or http on a loopback host; no path, no
   * user name or password. @default the origin of the MCP request that asked
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
  /**
   * Signs the person in on the page through your authorization server (OpenID Connect, code flow
   * with PKCE; needs the peer `openid-client`), for a server with no login of its own: a page bound
   * to a person asks them to sign in at the provider (straight through when already signed in
   * there), then is shown and answered only to the same issuer and subject. Register the redirect
   * URI `<publicOrigin><path>/signed-in` at the provider. Not with `browserUser`.
   * @default undefined — `browserUser`, or the unguessable link is the only key
   */
  readonly signIn?: AnswerPageSignInOptions;
  /** Where pages and answers are kept (a fleet: over Redis). @default in memory, at most 16 MiB */
  readonly backend?: AnswerPageBackend;
  /** How long a page stays open, and then how long its answer waits, in ms. @default 900_000 (15 minutes) */
  readonly ttlMs?: number;
  /**
   * Sends the link to anonymous 2026-07-28 clients without elicitation too (and to 2025-11-25 ones
   * without a session id, as over stdio). Their call made again
   * holds nothing of the first, so the page is bound to the tool, its arguments and the question
   * only: anyone making the same call finds the page's answer, or answers first for the caller.
   * Only for servers whose callers trust one another (one user, a closed network).
   * @default false — such a question fails with -32021, as without pages
   */
  readonly anonymousLinksShareAnswers?: boolean;
}

/** `publicOrigin` as an origin (`https://host[:port]`), or `invalid_options` naming what is wrong. */
export function checkedPublicOrigin(api: string, publicOrigin: string): string {
  const option = 'answerPage.publicOrigin';
  let url: URL;
  try {
    url = new URL(publicOrigin);
  } catch {
    throw invalidOption(
      api,
      option,
      `must be an origin such as https://mcp.example.com (got '${publicOrigin}')`,
      'Give the scheme and host the links are opened on.',
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    throw invalidOption(
      api,
      option,
      `must use https (got '${url.protocol}' for host '${url.hostname}')`,
      'Links are opened by people in browsers: serve them over https; plain http is allowed only for localhost, 127.0.0.1 and [::1].',
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw invalidOption(
      api,
      option,
      `carries a user name or password (got '${url.protocol}//…@${url.host}')`,
      'Leave credentials out of it.',
    );
  }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw invalidOption(
      api,
      option,
      `must be an origin, without a path, query or fragment (got '${publicOrigin}')`,
      `Give the origin only, such as '${url.origin}', and the pages' path as answerPage.path.`,
    );
  }
  return url.origin;
}

/**
 * Builds a server's answer pages from its `answerPage` option (checked here, at construction): the
 * page by URL and the page by link, over one store and serving one route.
 */
export function answerPageChannels(
  api: string,
  options: AnswerPageOptions & { readonly maxAnswerBytes?: number },
  onerror: (error: Error, ref: string) => void,
): ServerChannel[] {
  const publicOrigin = options.publicOrigin === undefined ? undefined : checkedPublicOrigin(api, options.publicOrigin);
  const store = createAnswerPageStore({
    ...(options.backend !== undefined && { backend: checkedPageBackend(api, 'answerPage.backend', options.backend) }),
    ...(options.ttlMs !== undefined && { ttlMs: options.ttlMs }),
    ...(options.maxAnswerBytes !== undefined && { maxAnswerBytes: options.maxAnswerBytes }),
  });
  if (options.signIn !== undefined && options.browserUser !== undefined) {
    throw invalidOption(
      api,
      'answerPage.signIn',
      'cannot be used with answerPage.browserUser',
      'Give signIn to sign people in through your authorization server, or browserUser for your own login, not both.',
    );
  }
  const signIn = options.signIn === undefined ? undefined : checkedSignIn(api, options.signIn);
  const path = checkedPagePath(api, 'answerPage.path', options.path ?? DEFAULT_ANSWER_PAGE_PATH);
  const serve = createAnswerPageHandler({
    store,
    path,
    onerror,
    publicOrigin,
    formSecret: formKey(api, 'answerPage.formSecret', options.formSecret),
    ...(options.browserUser !== undefined && { browserUser: options.browserUser }),
    ...(signIn !== undefined && { signIn }),
  });
  const pages = createPageLinks(createFormPages(store), { path, publicOrigin });
  const route: HttpRoute = {
    owns: (request) => new URL(request.url).pathname.startsWith(`${path}/`),
    serve: async (request) => (await serve(request)) ?? new Response('Not Found', { status: 404 }),
  };
  const routes = [route];
  return [
    { name: 'page by URL', provider: pageUrlChannel(pages), routes },
    { name: 'page by link', provider: pageLinkChannel(pages, options.anonymousLinksShareAnswers === true), routes },
  ];
}
