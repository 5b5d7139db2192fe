/**
 * The question app's document: self-contained under the CSP MCP Apps hosts give an app (inline
 * script and style, nothing fetched): the answer page's style sheet, ext-apps' dependency-free `App`
 * bundle (`@modelcontextprotocol/ext-apps/app-with-deps`) inlined as a module with its final export
 * turned into a binding, then the app's own script.
 */
import { McpResolveError } from '../errors.js';
import { htmlDocument } from '../form/document.js';
import { FORM_HEADING } from '../form/formHtml.js';
import { appScript } from './appScript.js';

/** The bundle's one export statement, at its end: `export{a as X,…,qB as App};`. */
const EXPORTS = /export\s*\{([^}]*)\}\s*;?\s*$/;

/** The bundle's code with its export statement replaced by `const App = …;` (throws `invalid_options` when it is not such a bundle). */
export function inlinedApp(bundle: string, api: string): string {
  const match = EXPORTS.exec(bundle);
  const local = match?.[1]
    ?.split(',')
    .map((entry) => entry.trim().split(/\s+as\s+/))
    .find((names) => names[1] === 'App')?.[0];
  if (match === null || local === undefined || /<\/script|<!--/i.test(bundle)) {
    throw new McpResolveError(
      'invalid_options',
      `${api}: the app script is not @modelcontextprotocol/ext-apps' app-with-deps bundle (no final "export{… as App}", or it holds "</script" or "<!--"). Give the text of @modelcontextprotocol/ext-apps/app-with-deps.`,
      { data: { api, option: 'apps.appScript' } },
    );
  }
  return `${bundle.slice(0, match.index)}\nconst App = ${local};\n`;
}

/** The whole app document around ext-apps' `bundle`. */
export function questionAppHtml(bundle: string, api: string): string {
  return htmlDocument(FORM_HEADING, '<p>Loading the question…</p>', {
    mainId: 'question',
    script: `${inlinedApp(bundle, api)}${appScript()}`,
  });
}
