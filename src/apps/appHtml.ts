/**
 * The question app's document: self-contained under the CSP MCP Apps hosts give an app (inline
 * script and style, nothing fetched): the answer page's style sheet, ext-apps' dependency-free `App`
 * bundle (`@modelcontextprotocol/ext-apps/app-with-deps`) inlined as a module with its final export
 * turned into a binding, then the app's own script.
 */
import { McpResolveError } from '../errors.js';
import { htmlDocument } from '../form/document.js';
import { FORM_HEADING } from '../form/formHtml.js';
import { APP_SCRIPT } from './appScript.js';

/** The module the app's `App` class comes from. */
export const APPS_BUNDLE = '@modelcontextprotocol/ext-apps/app-with-deps';

/** The bundle's one export statement, at its end: `export{a as X,…,qB as App};`. */
const EXPORTS = /export\s*\{([^}]*)\}\s*;?\s*$/;

/** The bundle's code with its export statement replaced by `const App = …;`; `undefined` when it is not such a bundle. */
export function inlinedApp(bundle: string): string | undefined {
  const match = EXPORTS.exec(bundle);
  const local = match?.[1]
    ?.split(',')
    .map((entry) => entry.trim().split(/\s+as\s+/))
    .find((names) => names[1] === 'App')?.[0];
  if (match === null || local === undefined || /<\/script|<!--/i.test(bundle)) return undefined;
  return `${bundle.slice(0, match.index)}\nconst App = ${local};\n`;
}

/** Why a script is not the bundle, for the messages that refuse it. */
export const NOT_THE_BUNDLE =
  'is not @modelcontextprotocol/ext-apps\' app-with-deps bundle (no final "export{… as App}", or it holds "</script" or "<!--")';

/** The whole app document around ext-apps' `bundle`. */
export function questionAppHtml(bundle: string): string {
  const app = inlinedApp(bundle);
  if (app === undefined) {
    throw new McpResolveError(
      'invalid_usage',
      `The question app cannot be built: the installed ${APPS_BUNDLE} ${NOT_THE_BUNDLE}. Install a version of @modelcontextprotocol/ext-apps this release supports (2.x).`,
      { data: { api: 'new McpResolveServer({ apps })' } },
    );
  }
  return htmlDocument(FORM_HEADING, '<p>Loading the question…</p>', {
    mainId: 'question',
    script: `${app}${APP_SCRIPT}`,
  });
}
