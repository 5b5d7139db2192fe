/**
 * The answer page's HTML shell and headers: every text from a question is escaped, the one style
 * sheet is inline and allowed by its hash, and nothing else may load (no script, no image, no font,
 * no frame). The plain pages (link no longer valid, not yours, done) carry nothing from the question.
 */
import { utf8 } from '../state/bytes.js';
import { defaultPrimitives } from '../state/primitives.js';

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** `text` safe inside an HTML element or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (character) => ESCAPES[character] ?? character);
}

/** The page's one style sheet (allowed by its hash in the content-security policy). */
export const PAGE_STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1.5rem;background:#f6f6f4;color:#1b1b1b}',
  'main{max-width:36rem;margin:0 auto;background:#fff;border:1px solid #d4d4d0;border-radius:8px;padding:1.5rem}',
  'h1{font-size:1.35rem;margin:0 0 1rem}',
  '.message{white-space:pre-wrap;margin:0 0 1.25rem}',
  'fieldset{border:0;margin:0 0 1.1rem;padding:0}',
  '.group{margin:0 0 1.1rem}',
  'legend,label.field{display:block;font-weight:600;margin-bottom:.25rem}',
  '.hint{color:#4a4a48;font-size:.9rem;margin:.1rem 0 .4rem}',
  '.required{color:#8a1c1c}',
  'input[type=text],input[type=email],input[type=url],input[type=date],input[type=datetime-local],input[type=number],select,textarea',
  '{width:100%;box-sizing:border-box;font:inherit;padding:.45rem;border:1px solid #8c8c88;border-radius:4px}',
  '.choice{display:block;margin:.2rem 0}',
  '.error{color:#8a1c1c;font-weight:600;margin:.3rem 0 0}',
  '[aria-invalid=true]{border-color:#8a1c1c;outline:2px solid #8a1c1c}',
  '.summary{border:2px solid #8a1c1c;border-radius:6px;padding:.75rem 1rem;margin:0 0 1.25rem}',
  '.summary h2{font-size:1.1rem;margin:0 0 .5rem}',
  '.summary p{margin:0 0 .5rem}',
  '.summary a{color:#8a1c1c}',
  '.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.5rem}',
  'button{font:inherit;padding:.5rem 1.1rem;border-radius:4px;border:1px solid #1b1b1b;background:#fff;cursor:pointer}',
  'button[value=accept]{background:#1d4ed8;border-color:#1d4ed8;color:#fff}',
  'button:focus-visible,input:focus-visible,select:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}',
].join('');

/** `base64url` as plain base64 with padding (what a CSP hash source takes). */
function base64Of(base64url: string): string {
  const plain = base64url.replace(/-/g, '+').replace(/_/g, '/');
  return plain + '='.repeat((4 - (plain.length % 4)) % 4);
}

const styleCrypto = defaultPrimitives();

/** The CSP hash source of {@link PAGE_STYLE}. */
export const PAGE_STYLE_HASH = `'sha256-${base64Of(styleCrypto.encodeBase64url(styleCrypto.sha256([utf8(PAGE_STYLE)])))}'`;

/** The content-security policy of every answer page: nothing loads but the inline style; the form posts to this origin only. */
export const PAGE_CSP = [
  "default-src 'none'",
  `style-src ${PAGE_STYLE_HASH}`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** The headers of every answer page response (plus any given). */
export function pageHeaders(extra: Readonly<Record<string, string>> = {}): Headers {
  const headers = new Headers({
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
  });
  for (const [name, value] of Object.entries(extra)) headers.append(name, value);
  return headers;
}

/** A whole HTML document titled `title` around `body` (already HTML). */
export function htmlDocument(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head>',
    '<body>',
    `<main>${body}</main>`,
    '</body>',
    '</html>',
  ].join('\n');
}

/** A page with a heading and one paragraph, nothing from any question. */
export function plainPage(status: number, heading: string, text: string, headers?: Record<string, string>): Response {
  const body = `<h1>${escapeHtml(heading)}</h1>\n<p>${escapeHtml(text)}</p>`;
  return new Response(htmlDocument(heading, body), { status, headers: pageHeaders(headers) });
}

/** The one answer to a page id that is tampered, expired, used or unknown (no detail of which). */
export function invalidLinkPage(): Response {
  return plainPage(
    404,
    'This link is no longer valid',
    'Go back to your assistant and ask it to try again: it will give you a new link if a question is still open.',
  );
}

/** The answer when the page belongs to someone else than the browser's signed-in user. */
export function notYoursPage(): Response {
  return plainPage(
    403,
    'This question is not for this account',
    'Sign in as the person the question was asked of, then open the link again.',
  );
}

/** The answer to a post without a valid form token (forged, from another site, or from an old copy of the page). */
export function refusedPostPage(): Response {
  return plainPage(
    403,
    'This answer was not accepted',
    'The form was sent without its security token, or from another page. Open the link again and answer there.',
  );
}

const DONE_TEXT: Readonly<Record<'accept' | 'decline' | 'cancel', [string, string]>> = {
  accept: ['Thank you, your answer was saved', 'You can close this tab and go back to your assistant to continue.'],
  decline: ['You declined', 'You can close this tab; your assistant will be told that you declined.'],
  cancel: ['You cancelled', 'You can close this tab; your assistant will be told that you cancelled.'],
};

/** The page after an answer was stored. */
export function donePage(action: 'accept' | 'decline' | 'cancel'): Response {
  const [heading, text] = DONE_TEXT[action];
  return plainPage(200, heading, text);
}
