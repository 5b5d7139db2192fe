/**
 * The answer page's HTML shell and headers: every text from a question is escaped, the one style
 * sheet is inline and allowed by its hash, and nothing else may load (no script, no image, no font,
 * no frame). The plain pages (link no longer valid, not yours, done) carry nothing from the question.
 */
import { htmlDocument } from '../form/document.js';
import { escapeHtml } from '../form/escape.js';
import { FORM_STYLE } from '../form/style.js';
import { utf8 } from '../state/bytes.js';
import { defaultPrimitives } from '../state/primitives.js';

/** `base64url` as plain base64 with padding (what a CSP hash source takes). */
function base64Of(base64url: string): string {
  const plain = base64url.replace(/-/g, '+').replace(/_/g, '/');
  return plain + '='.repeat((4 - (plain.length % 4)) % 4);
}

const styleCrypto = defaultPrimitives();

/** The CSP hash source of the form's style sheet (`FORM_STYLE`). */
export const PAGE_STYLE_HASH = `'sha256-${base64Of(styleCrypto.encodeBase64url(styleCrypto.sha256([utf8(FORM_STYLE)])))}'`;

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
