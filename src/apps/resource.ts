/**
 * The question app's resource, `ui://mcp-resolve/question` (`text/html;profile=mcp-app`), listed
 * and read only on a server with the `apps` option. Its document is built once, at the first read,
 * from ext-apps' `App` class as built into the package (`appBundle.ts`, loaded then, so a server
 * without the option never loads it): no peer and no file system needed, on every runtime.
 */
import type { McpServer, ReadResourceResult } from '@modelcontextprotocol/server';

import { questionAppHtml } from './appHtml.js';
import { APP_MIME_TYPE, QUESTION_APP_URI } from './wire.js';

/** Serves the resource: `document()` gives the app's HTML (built once by the caller). */
export function installQuestionApp(mcp: McpServer, document: () => Promise<string>): void {
  mcp.registerResource(
    'mcp-resolve question',
    QUESTION_APP_URI,
    {
      mimeType: APP_MIME_TYPE,
      description: 'Shows a question the server asks, as a form, and sends the answer.',
    },
    async (): Promise<ReadResourceResult> => ({
      contents: [
        {
          uri: QUESTION_APP_URI,
          mimeType: APP_MIME_TYPE,
          text: await document(),
          _meta: { ui: { prefersBorder: true } },
        },
      ],
    }),
  );
}

/** The app's document, built once, at the first read. */
export function questionAppDocument(): () => Promise<string> {
  let built: Promise<string> | undefined;
  return () => (built ??= import('./appBundle.js').then(({ APP_BUNDLE }) => questionAppHtml(APP_BUNDLE)));
}
