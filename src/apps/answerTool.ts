/**
 * `mcp_resolve_answer`, the app-only tool the question app answers through (hidden from the model:
 * `_meta.ui.visibility: ['app']`), listed to and taken from only clients that render MCP Apps (a
 * model on any other client never sees it; a call from one is refused, naming the capability). Every question it shows or checks is one the server stored: the
 * app names a page (a page id of the store's shape) and nothing of the question itself, so nothing a
 * client sends is rendered or used as a schema. Its input is bounded: the page id, and a form of at
 * most three times the answer bound (percent-encoding). A page that is answered, expired, unknown or
 * someone else's is closed and nothing is applied. Three uses:
 * - the form of a page (`page` alone), as the answer page shows it;
 * - in the chat (`page` and `form`): the submission is checked as the answer page checks it and
 *   stored once for the call that asked, only by the principal asked;
 * - SEP-3118 (`page`, `form` and `elicitation`): the page of a form question the host forwarded
 *   (its `_meta`), and the standard `ElicitResult` a submission of it stands for (the server checks
 *   that again when it arrives, as any in-band answer); nothing is stored.
 */
import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { formFields } from '../form/fields.js';
import { renderForm } from '../form/formHtml.js';
import type { FormQuestion } from '../form/submission.js';
import { checkSubmission } from '../form/submission.js';
import type { AnswerPageStore } from '../pageStore/store.js';
import { isPageId } from '../pageStore/store.js';
import type { ErrorMasker } from '../round/masking.js';
import { clientCapabilitiesOf, eraOf } from '../round/requestEra.js';
import type { ToolListing } from '../channels/channel.js';
import { ANSWER_TOOL, APP_MIME_TYPE, QUESTION_APP_URI, showsApps, UI_EXTENSION } from './wire.js';

/** What the tool answers, as `structuredContent`. */
export type AnswerToolResult =
  /** The form to show (a page's, or one refused with its field errors). */
  | { readonly status: 'form' | 'invalid'; readonly form: string }
  /** In the chat: the answer is stored for the call, which the app now makes again. */
  | { readonly status: 'answered'; readonly action: 'accept' | 'decline' | 'cancel' }
  /** SEP-3118: the `ElicitResult` to hand the host. */
  | { readonly status: 'checked'; readonly answer: Readonly<Record<string, unknown>> }
  /** In the chat: the question takes no answer from this app; nothing was applied. */
  | { readonly status: 'closed'; readonly message: string };

/** The text of a closed question (answered already, expired, another call's or another person's). */
export const CLOSED_QUESTION =
  'This question is closed: it was answered already, has expired, or belongs to another call. Nothing was applied. Ask the assistant to try again if it is still needed.';

/** Why a client that renders no apps cannot call the tool, and what it would declare to. */
export const NOT_AN_APP_HOST =
  `${ANSWER_TOOL} is the question app's: only a client that renders MCP Apps may call it. ` +
  `A host declares it in its capabilities: extensions: { "${UI_EXTENSION}": { mimeTypes: ["${APP_MIME_TYPE}"] } }.`;

/** The answer tool's `tools/list` entry: listed only to clients that render MCP Apps. */
export const answerToolListing: ToolListing = (tool, _mayAsk, declared) =>
  tool.name !== ANSWER_TOOL || showsApps(declared) ? tool : undefined;

/** Options of {@link installAnswerTool}. */
export interface AnswerToolOptions {
  readonly store: AnswerPageStore;
  /** The principal of a request (the server's `principal` option). */
  readonly principal: (ctx: ServerContext) => string | undefined;
  /** What the client reads when the tool fails (a store that failed): the server's masked text with a ref, the cause to its `onerror`. */
  readonly mask: ErrorMasker;
}

function result(structured: AnswerToolResult): CallToolResult {
  const text = structured.status === 'closed' ? structured.message : JSON.stringify(structured);
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** The app's form of `question`: as the answer page shows it, with a refused submission's values and errors when given. */
export function appForm(
  question: FormQuestion,
  submitted?: URLSearchParams,
  summary?: string,
  fieldErrors?: Readonly<Record<string, string>>,
): string {
  return renderForm({
    message: question.message,
    fields: formFields(question.requestedSchema),
    ...(submitted !== undefined && { submitted }),
    ...(summary !== undefined && { summary }),
    ...(fieldErrors !== undefined && { fieldErrors }),
  });
}

/** Registers the tool on `mcp` (a channel setup). */
export function installAnswerTool(mcp: McpServer, options: AnswerToolOptions): void {
  const { store } = options;
  const { maxAnswerBytes } = store.limits;
  const input = z.object({
    page: z.string().max(64),
    form: z
      .string()
      .max(maxAnswerBytes * 3 + 4096)
      .optional(),
    elicitation: z.boolean().optional(),
  });
  mcp.registerTool(
    ANSWER_TOOL,
    {
      title: 'Answer a question',
      description: "Used by the question app to send the person's answer. Not for the model.",
      inputSchema: input,
      _meta: { ui: { resourceUri: QUESTION_APP_URI, visibility: ['app'] } },
    },
    async (args, ctx): Promise<CallToolResult> => {
      if (!showsApps(clientCapabilitiesOf(ctx, mcp.server, eraOf(ctx))))
        return { content: [{ type: 'text', text: NOT_AN_APP_HOST }], isError: true };
      try {
        return await answer(args, ctx);
      } catch (error) {
        const text = options.mask(error, { method: 'tools/call', name: ANSWER_TOOL });
        return { content: [{ type: 'text', text }], isError: true };
      }
    },
  );

  async function answer(args: z.infer<typeof input>, ctx: ServerContext): Promise<CallToolResult> {
    const page = isPageId(args.page) ? await store.page(args.page) : undefined;
    if (page === undefined || (page.principal !== undefined && page.principal !== options.principal(ctx))) {
      return result({ status: 'closed', message: CLOSED_QUESTION });
    }
    if (args.form === undefined) return result({ status: 'form', form: appForm(page) });
    const form = new URLSearchParams(args.form);
    const checked = checkSubmission(page, form, maxAnswerBytes);
    if (!checked.ok)
      return result({ status: 'invalid', form: appForm(page, form, checked.summary, checked.fieldErrors) });
    if (args.elicitation === true) return result({ status: 'checked', answer: checked.answer });
    if (!(await store.submit(page.pageId, checked.answer)))
      return result({ status: 'closed', message: CLOSED_QUESTION });
    return result({ status: 'answered', action: checked.answer.action });
  }
}
