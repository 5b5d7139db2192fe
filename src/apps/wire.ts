/**
 * What the question app puts on the wire and reads from it: the resource's URI and MIME type, the
 * MCP Apps extension a client declares, the app-only answer tool, and the `_meta` keys that carry
 * a question to the app and the call's ticket back. The values are the MCP Apps specification's
 * (`RESOURCE_MIME_TYPE` and `EXTENSION_ID` of `@modelcontextprotocol/ext-apps/server`).
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';

import { showsForms } from '../channels/choice.js';
import { isRecord } from '../ownKeys.js';

/** The app that shows a question: one `ui://` resource for every question. */
export const QUESTION_APP_URI = 'ui://mcp-resolve/question';

/** The MIME type of an MCP App resource. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The MCP Apps extension, as clients and servers declare it in `capabilities.extensions`. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** The app-only tool the app answers through (`_meta.ui.visibility: ['app']`). */
export const ANSWER_TOOL = 'mcp_resolve_answer';

/** The `_meta` key of an in-chat hand-off result: the question the app shows (an {@link AppQuestion}). */
export const QUESTION_META = 'io.github.mcp-resolve/question';

/**
 * The `_meta` key of an app-rendered form question (SEP-3118): the page the server stored the
 * question under (an {@link AttachedQuestion}), which the app answers through; the app reads the
 * question from the server, never from the request the host forwarded.
 */
export const ELICITATION_META = 'io.github.mcp-resolve/elicitation';

/** What a SEP-3118 form question carries under {@link ELICITATION_META}. */
export interface AttachedQuestion {
  /** The page id the app answers under (`mcp_resolve_answer`'s `page`, with `elicitation: true`). */
  readonly page: string;
}

/** The `_meta` key of the app's re-run `tools/call`: the call's ticket, which finds the answer given in the app. */
export const TICKET_META = 'io.github.mcp-resolve/ticket';

/** The question an in-chat hand-off gives the app, under {@link QUESTION_META}. */
export interface AppQuestion {
  /** The id the app answers under (`mcp_resolve_answer`'s `page`): 22 base64url characters. */
  readonly page: string;
  /** What the app sends back on its re-run under {@link TICKET_META}: the call's secret. */
  readonly ticket: string;
  /** The tool to call again once answered, and its arguments as the call gave them. */
  readonly tool: string;
  readonly arguments: unknown;
  /** The question's form, as the answer page shows it (HTML). */
  readonly form: string;
}

/** The MCP Apps declaration of a client, when it declares the extension. */
function uiOf(declared: ClientCapabilities | undefined): Record<string, unknown> | undefined {
  const ui = declared?.extensions?.[UI_EXTENSION];
  return isRecord(ui) ? ui : undefined;
}

/** Whether a client that declared `declared` renders MCP Apps (the extension, with the app MIME type). */
export function showsApps(declared: ClientCapabilities | undefined): boolean {
  const mimeTypes = uiOf(declared)?.mimeTypes;
  return Array.isArray(mimeTypes) && mimeTypes.includes(APP_MIME_TYPE);
}

/** Whether a client renders form questions as apps (SEP-3118): form elicitation, apps, and `elicitation` in the extension. */
export function rendersFormsAsApps(declared: ClientCapabilities | undefined): boolean {
  return showsForms(declared) && showsApps(declared) && isRecord(uiOf(declared)?.elicitation);
}

/** `meta` with the question app named as MCP Apps hosts read it: `ui.resourceUri`. */
export function withApp(meta: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const ui = isRecord(meta?.ui) ? meta.ui : {};
  return { ...meta, ui: { ...ui, resourceUri: QUESTION_APP_URI } };
}
