/**
 * The question app's document: self-contained under the CSP MCP Apps hosts give an app (inline
 * script and style, nothing fetched): the answer page's style sheet, then one module script: ext-apps'
 * `App` class, built into the package (`appBundle.ts`), and the app's own script.
 */
import { htmlDocument } from '../form/document.js';
import { FORM_HEADING } from '../form/formHtml.js';
import { APP_SCRIPT } from './appScript.js';

/** The whole app document around `appClass`, a script that binds `App` (the generated `APP_BUNDLE`). */
export function questionAppHtml(appClass: string): string {
  return htmlDocument(FORM_HEADING, '<p>Loading the question…</p>', {
    mainId: 'question',
    script: `${appClass}\n${APP_SCRIPT}`,
  });
}
