/**
 * Answering an answer page in a test as a person's browser would, without a browser: open the
 * link, keep the form token and the form cookie it sets, post the answer as the page's form does,
 * and read back what the page said.
 */
import { inputName } from '../form/fields.js';
import { McpResolveError } from '../errors.js';
import { setOwn } from '../ownKeys.js';

/** What the person does on the page or in the app: send values (`content`, by field name), decline or cancel. */
export type PageAction =
  | { readonly action: 'accept'; readonly content: Readonly<Record<string, unknown>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** What the page answered. */
export interface AnsweredPage {
  /** The HTTP status of the page's last response: 200 once saved, 422 for an answer to fix, 403, 404, … */
  readonly status: number;
  /** Whether the page saved the answer (decline and cancel included). */
  readonly saved: boolean;
  /** The page's heading, e.g. `Thank you, your answer was saved` or `This link is no longer valid`. */
  readonly heading: string;
  /** Why the answer was refused, as shown above the form (absent when the field errors say it all). */
  readonly summary: string | undefined;
  /** Field name → what the page asks the person to fix in it. */
  readonly fieldErrors: Readonly<Record<string, string>>;
}

const UNESCAPES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#96;': '`',
};

/** The text of an escaped HTML snippet (the page escapes exactly these characters). */
function unescapedText(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&(?:amp|lt|gt|quot|#39|#96);/g, (entity) => UNESCAPES[entity] ?? entity);
}

/** Why a form shown again refused its answer: the summary above it and each field's error. */
export function refusalOf(html: string): Pick<AnsweredPage, 'summary' | 'fieldErrors'> {
  const fieldErrors: Record<string, string> = {};
  for (const [, name = '', error = ''] of html.matchAll(
    /<p class="error" id="[^"]*" data-field="([^"]*)">(.*?)<\/p>/g,
  )) {
    setOwn(fieldErrors, unescapedText(name), unescapedText(error));
  }
  const summary = /<div class="summary"[^>]*>.*?<\/h2><p>(.*?)<\/p>/s.exec(html)?.[1];
  return { summary: summary === undefined ? undefined : unescapedText(summary), fieldErrors };
}

/** What `html` says: a posted answer's response, or a link that could not be shown (never the form's GET). */
function readPage(status: number, html: string): AnsweredPage {
  return {
    status,
    saved: status === 200,
    heading: unescapedText(/<h1>(.*?)<\/h1>/s.exec(html)?.[1] ?? ''),
    ...refusalOf(html),
  };
}

/**
 * The form's inputs for `answer`, named as the form names them (a checkbox is sent only when
 * true), after the page's form token when given; `api` names the caller in the error.
 */
export function formOf(answer: PageAction, api: string, token?: string): URLSearchParams {
  const form = new URLSearchParams(token === undefined ? {} : { 'form-token': token });
  form.append('action', answer.action);
  if (answer.action !== 'accept') return form;
  for (const [name, value] of Object.entries(answer.content)) {
    const input = inputName({ name });
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (item === true) form.append(input, 'on');
      else if (typeof item === 'string' || typeof item === 'number') form.append(input, String(item));
      else if (item !== false && item !== undefined && item !== null) {
        throw new McpResolveError(
          'invalid_options',
          `${api}: content.${name} must be a string, a number, a boolean or a list of strings (got ${typeof item}).`,
          { data: { api, option: 'content' } },
        );
      }
    }
  }
  return form;
}

/**
 * Answers the answer page at `pageUrl` as a person's browser would: opens it (GET), then posts
 * `answer` with the page's form token and form cookie, and returns what the page said. An answer
 * the page refuses is not thrown: its `status` is 422, with the page's `summary` and `fieldErrors`;
 * a link that is no longer valid (404) or not for this user (403) is returned as the page shows it,
 * without posting. Throws only when `pageUrl` is not an answer page.
 *
 * @example
 * ```ts
 * const page = await answerPage(url, { action: 'accept', content: { amount: 120 } }, { via: handler });
 * expect(page.saved).toBe(true);
 * ```
 */
export async function answerPage(
  pageUrl: string | URL,
  answer: PageAction,
  options: {
    /**
     * Who serves the page: a handler from `createDualEraHandler` (in process), or anything with a
     * `fetch(request)`. @default `globalThis` (the real network, e.g. a `serveHttp` server)
     */
    readonly via?: {
      /** Serves one request of the page, as the server would. */
      fetch(request: Request): Promise<Response>;
    };
    /**
     * Headers the browser sends with both requests, e.g. `{ cookie: 'session=…' }` for the page's
     * `browserUser`. The form cookie the page sets is added to any `cookie` given here.
     */
    readonly headers?: Readonly<Record<string, string>>;
  } = {},
): Promise<AnsweredPage> {
  const url = new URL(pageUrl);
  const via = options.via ?? globalThis;
  const headers = new Headers(options.headers);
  if (!headers.has('host')) headers.set('host', url.host);
  const shown = await via.fetch(new Request(url, { headers }));
  const html = await shown.text();
  if (shown.status !== 200) return readPage(shown.status, html);
  const token = /<input type="hidden" name="form-token" value="([^"]*)">/.exec(html)?.[1];
  if (token === undefined) {
    throw new McpResolveError(
      'invalid_options',
      `answerPage(): ${url.href} answered 200 without an answer page's form. Pass the link a question gave.`,
      { data: { api: 'answerPage()', option: 'pageUrl' } },
    );
  }
  const formCookie = shown.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .join('; ');
  const postHeaders = new Headers(headers);
  postHeaders.set(
    'cookie',
    [headers.get('cookie'), formCookie].filter((part) => part !== null && part !== '').join('; '),
  );
  postHeaders.set('content-type', 'application/x-www-form-urlencoded');
  // As a browser posts the page's form: no referrer (so Origin: null), from the page itself.
  postHeaders.set('origin', 'null');
  postHeaders.set('sec-fetch-site', 'same-origin');
  const posted = await via.fetch(
    new Request(url, {
      method: 'POST',
      headers: postHeaders,
      body: formOf(answer, 'answerPage()', unescapedText(token)),
    }),
  );
  return readPage(posted.status, await posted.text());
}
