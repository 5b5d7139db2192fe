/** The HTML document that shows the form: the answer page's and the question app's. */
import { escapeHtml } from './escape.js';
import { FORM_STYLE } from './style.js';

/** What a document adds around its body. */
export interface DocumentOptions {
  /** The `id` of the `<main>` element (it is then a polite live region, for a script that replaces its content). */
  readonly mainId?: string;
  /** A module script after `<main>` (inline; it must not hold `</script`). */
  readonly script?: string;
}

/** A whole HTML document titled `title` around `body` (already HTML), with the form's style sheet. */
export function htmlDocument(title: string, body: string, options: DocumentOptions = {}): string {
  const main = options.mainId === undefined ? '<main>' : `<main id="${escapeHtml(options.mainId)}" aria-live="polite">`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${FORM_STYLE}</style>`,
    '</head>',
    '<body>',
    `${main}${body}</main>`,
    ...(options.script === undefined ? [] : [`<script type="module">${options.script}</script>`]),
    '</body>',
    '</html>',
  ].join('\n');
}
