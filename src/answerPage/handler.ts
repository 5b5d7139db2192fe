/**
 * The answer page's web-standard handler: `GET <path>/<pageId>` shows the form of an open page,
 * `POST` takes its answer (form token checked, answer checked as an in-band one, stored once; a
 * store that fails keeps the page open and shows the form again, saying the answer was not saved). A
 * page id that is malformed, unknown, expired or used gets one plain "This link is no longer valid"
 * page; with `browserUser` or `signIn` (the page's gate), a page bound to a principal is for that
 * person only. Requests outside the path resolve to `undefined`, for the caller to serve.
 */
import { readRequestBody } from '@modelcontextprotocol/server';

import { invalidOption } from '../optionChecks.js';
import { utf8 } from '../state/bytes.js';
import type { BrowserUser } from './browserUser.js';
import type { PageGate } from './gate.js';
import { browserUserGate } from './gate.js';
import type { AnswerPageSignInOptions } from './signIn.js';
import { signInGate } from './signIn.js';
import { htmlDocument } from '../form/document.js';
import { formFields } from '../form/fields.js';
import type { FormView } from '../form/formHtml.js';
import { FORM_HEADING, renderForm } from '../form/formHtml.js';
import { checkSubmission } from '../form/submission.js';
import type { FormTokens } from './formToken.js';
import { createFormTokens, FORM_COOKIE } from './formToken.js';
import { donePage, invalidLinkPage, pageHeaders, plainPage, refusedPostPage } from './html.js';
import type { AnswerPageStore } from '../pageStore/store.js';
import { isPageId } from '../pageStore/store.js';
import { newRef } from '../round/masking.js';
import type { PostBudget } from './postBudget.js';
import { createPostBudget, PAGE_POSTS_PER_MINUTE } from './postBudget.js';

/** Options of {@link createAnswerPageHandler}. */
export interface AnswerPageHandlerOptions {
  /** Where pages and answers are kept. */
  readonly store: AnswerPageStore;
  /** The path under which pages are served, as `<path>/<pageId>`. @default '/mcp-resolve/answer' */
  readonly path?: string;
  /**
   * The key of the form tokens, at least 32 bytes (a string is taken as UTF-8). Every instance of a
   * fleet needs the same one, since a page may be shown by one and posted to another.
   * @default 32 random bytes per handler (one process)
   */
  readonly formSecret?: string | Uint8Array;
  /** The browser's signed-in user by your own login (see `AnswerPageOptions.browserUser`). @default none */
  readonly browserUser?: (request: Request) => BrowserUser | Promise<BrowserUser>;
  /** Signs people in at this OpenID provider instead (see `signIn.ts`); not with `browserUser`. */
  readonly signIn?: AnswerPageSignInOptions;
  /**
   * The origin the links are handed out on (the `answerPage` option's `publicOrigin`): when it is
   * https, the form cookie is `Secure` even if the request reached this handler over http (behind
   * a proxy that terminates TLS). A request that came in over https always gets a `Secure` cookie.
   */
  readonly publicOrigin?: string | undefined;
  /**
   * Receives the errors behind a "cannot be shown right now" page (a store or provider that failed):
   * an `Error` whose message starts `answer page failure [ref <ref>]`, its `cause` the failure.
   */
  readonly onerror?: (error: Error, ref: string) => void;
}

/** Serves answer pages: a response for a request under the path, `undefined` for any other. */
export type AnswerPageHandler = (request: Request) => Promise<Response | undefined>;

/** The default path of answer pages. */
export const DEFAULT_ANSWER_PAGE_PATH = '/mcp-resolve/answer';

/** The URL path of page `pageId` under `path`. */
export function answerPagePath(pageId: string, path = DEFAULT_ANSWER_PAGE_PATH): string {
  return `${path}/${pageId}`;
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * The form-token key from a `formSecret` option named `option` of `api` (32 random bytes when it is
 * absent); `invalid_options` when it is shorter than 32 bytes.
 */
export function formKey(api: string, option: string, secret: string | Uint8Array | undefined): Uint8Array {
  if (secret === undefined) return crypto.getRandomValues(new Uint8Array(32));
  const bytes = typeof secret === 'string' ? utf8(secret) : secret;
  if (bytes.length < 32) {
    throw invalidOption(
      api,
      option,
      `must be at least 32 bytes (got ${bytes.length})`,
      'Use 32 random bytes, the same on every instance (an environment variable that is not set reads as empty).',
    );
  }
  return bytes;
}

/** `path` when it can hold pages (`option` of `api` names it), else `invalid_options`. */
export function checkedPagePath(api: string, option: string, path: string): string {
  if (!path.startsWith('/') || path.endsWith('/') || /[?#\s]/.test(path)) {
    throw invalidOption(
      api,
      option,
      `must start with '/', not end with '/' and hold no '?', '#' or space (got '${path}')`,
      "Give a path such as '/mcp-resolve/answer'.",
    );
  }
  return path;
}

/** Creates the answer page handler. */
export function createAnswerPageHandler(options: AnswerPageHandlerOptions): AnswerPageHandler {
  const api = 'createAnswerPageHandler()';
  const path = checkedPagePath(api, 'path', options.path ?? DEFAULT_ANSWER_PAGE_PATH);
  const key = formKey(api, 'formSecret', options.formSecret);
  const tokens = createFormTokens(key);
  const { store, publicOrigin } = options;
  const report = (error: unknown): string => {
    const ref = newRef();
    try {
      const cause = error instanceof Error ? error : new Error(String(error));
      options.onerror?.(new Error(`answer page failure [ref ${ref}]: ${cause.message}`, { cause }), ref);
    } catch {
      // Reporting never changes a response.
    }
    return ref;
  };
  const httpsOrigin = publicOrigin !== undefined && /^https:/i.test(publicOrigin);
  const secure = (url: URL): boolean => httpsOrigin || url.protocol === 'https:';
  const gate =
    options.signIn === undefined
      ? browserUserGate(options.browserUser)
      : signInGate({ signIn: options.signIn, formKey: key, path, publicOrigin, secure, report });
  const context: PageContext = { store, tokens, path, gate, secure, report, posts: createPostBudget() };

  return async (request) => {
    const url = new URL(request.url);
    if (!url.pathname.startsWith(`${path}/`)) return undefined;
    const pageId = url.pathname.slice(path.length + 1);
    const method = request.method.toUpperCase();
    try {
      const own = await gate.route(request, url);
      if (own !== undefined) return own;
      if (method !== 'GET' && method !== 'POST') {
        return plainPage(405, 'Method not allowed', 'Open the link in your browser.', { Allow: 'GET, POST' });
      }
      if (!isPageId(pageId)) return invalidLinkPage();
      return method === 'GET' ? await show(context, request, url, pageId) : await answer(context, request, url, pageId);
    } catch (error) {
      const ref = report(error);
      return plainPage(503, 'This page cannot be shown right now', `Try again in a moment. (ref ${ref})`, {
        'Retry-After': '5',
      });
    }
  };
}

interface PageContext {
  readonly store: AnswerPageStore;
  readonly tokens: FormTokens;
  readonly path: string;
  /** Who may see and answer a page. */
  readonly gate: PageGate;
  /** Whether the form cookie is `Secure` for a request to `url`. */
  readonly secure: (url: URL) => boolean;
  /** Hands a store failure to `onerror` under a fresh ref, which it returns (the person sees only that it failed, and the ref). */
  readonly report: (error: unknown) => string;
  /** How often each page may be posted to. */
  readonly posts: PostBudget;
}

/** The whole answer page for a form question. */
function formPage(view: FormView): string {
  return htmlDocument(FORM_HEADING, renderForm(view));
}

async function show(context: PageContext, request: Request, url: URL, pageId: string): Promise<Response> {
  const page = await context.store.page(pageId);
  if (page === undefined) return invalidLinkPage();
  const refused = await context.gate.admit(request, url, page, pageId);
  if (refused !== undefined) return refused;
  const pagePath = answerPagePath(pageId, context.path);
  const maxAgeMs = page.expiresAt - Date.now();
  const minted = context.tokens.mint(pageId, pagePath, context.secure(url), maxAgeMs, request.headers.get('cookie'));
  const html = formPage({
    message: page.message,
    fields: formFields(page.requestedSchema),
    action: pagePath,
    formToken: minted.token,
  });
  return new Response(html, { status: 200, headers: pageHeaders({ 'Set-Cookie': minted.setCookie }) });
}

/** Whether a browser says the post came from another site (`Sec-Fetch-Site`; absent: the form token decides). */
function crossSite(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site');
  return site !== null && site !== 'same-origin';
}

async function answer(context: PageContext, request: Request, url: URL, pageId: string): Promise<Response> {
  const { store, tokens } = context;
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== FORM_TYPE || crossSite(request)) return refusedPostPage();
  // Percent-encoding at most triples a byte; the form's own fields add a little.
  const read = await readRequestBody(request, store.limits.maxAnswerBytes * 3 + 4096);
  if (read.tooLarge) return plainPage(413, 'This answer is too long', 'Shorten it, then open the link again.');
  const form = new URLSearchParams(read.text);
  const formToken = form.get('form-token');
  // A used page says so (as a GET of its link would) before the token is looked at.
  const page = await store.page(pageId);
  if (page === undefined) return invalidLinkPage();
  if (!tokens.verify(pageId, request.headers.get('cookie'), formToken)) return refusedPostPage();
  const refused = await context.gate.admit(request, url, page, pageId);
  if (refused !== undefined) return refused;
  const wait = context.posts.take(pageId);
  if (wait !== undefined) {
    return plainPage(
      429,
      'Too many answers to this page',
      `This page takes at most ${PAGE_POSTS_PER_MINUTE} answers a minute. Wait ${wait} seconds, then send your answer again.`,
      { 'Retry-After': String(wait) },
    );
  }
  const checked = checkSubmission(page, form, store.limits.maxAnswerBytes);
  /** The form again, as posted, with what to fix or do. */
  const again = (status: number, summary: string | undefined, fieldErrors: Readonly<Record<string, string>>) => {
    const html = formPage({
      message: page.message,
      fields: formFields(page.requestedSchema),
      action: answerPagePath(pageId, context.path),
      formToken: formToken ?? '',
      submitted: form,
      fieldErrors,
      ...(summary !== undefined && { summary }),
    });
    return new Response(html, { status, headers: pageHeaders(status === 503 ? { 'Retry-After': '5' } : {}) });
  };
  if (!checked.ok) return again(422, checked.summary, checked.fieldErrors);
  let stored: boolean;
  try {
    stored = await store.submit(pageId, checked.answer);
  } catch (error) {
    // Nothing was stored and the page is still open: the person sends the same answer again.
    const ref = context.report(error);
    return again(503, `${NOT_SAVED} (ref ${ref})`, {});
  }
  if (!stored) return invalidLinkPage();
  const cleared = `${FORM_COOKIE}=; Path=${answerPagePath(pageId, context.path)}; Max-Age=0; HttpOnly; SameSite=Strict${context.secure(url) ? '; Secure' : ''}`;
  const done = donePage(checked.answer.action);
  done.headers.append('Set-Cookie', cleared);
  return done;
}

/** What the form says above itself when its answer could not be stored. */
export const NOT_SAVED =
  'Your answer was not saved: the server could not store it just now. This link still works: send the answer again in a moment.';
