/**
 * `mcp_resolve_answer`, the app-only tool the question app answers through (hidden from the model:
 * `_meta.ui.visibility: ['app']`). Its input is client-controlled and bounded: a page id of the
 * store's shape, a form of at most three times the answer bound (percent-encoding), a question of
 * at most the page bound. Two uses:
 * - in the chat (`page` and `form`): the submission is checked as the answer page checks it and
 *   stored once for the call that asked, only by the principal asked; a page that is answered,
 *   expired, unknown or someone else's is closed and nothing is applied;
 * - SEP-3118 (`question`, `form` absent or given): the form of a question the host forwarded, and
 *   the standard `ElicitResult` a submission of it stands for (the server checks that again when it
 *   arrives, as any in-band answer).
 */
import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import canonicalize from 'canonicalize';
import { z } from 'zod';

import { formFields } from '../form/fields.js';
import { renderForm } from '../form/formHtml.js';
import type { FormQuestion } from '../form/submission.js';
import { checkSubmission } from '../form/submission.js';
import type { AnswerPageStore } from '../answerPage/store.js';
import { isPageId } from '../answerPage/store.js';
import { utf8 } from '../state/bytes.js';
import { ANSWER_TOOL, QUESTION_APP_URI } from './wire.js';

/** What the tool answers, as `structuredContent`. */
export type AnswerToolResult =
  /** The form to show (a forwarded question's, or one refused with its field errors). */
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

/** The text of a call with neither a page nor a question. */
const NOTHING_TO_ANSWER = `${ANSWER_TOOL} takes a page and a form (an answer in the chat) or a question (a form the host forwarded).`;

/** Options of {@link installAnswerTool}. */
export interface AnswerToolOptions {
  readonly store: AnswerPageStore;
  /** The principal of a request (the server's `principal` option). */
  readonly principal: (ctx: ServerContext) => string | undefined;
}

function result(structured: AnswerToolResult, isError = false): CallToolResult {
  const text = structured.status === 'closed' ? structured.message : JSON.stringify(structured);
  return {
    content: [{ type: 'text', text }],
    structuredContent: structured,
    ...(isError && { isError: true }),
  };
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
  const { maxAnswerBytes, maxPageBytes } = store.limits;
  const input = z.object({
    page: z.string().max(64).optional(),
    question: z.object({ message: z.string(), requestedSchema: z.record(z.string(), z.unknown()) }).optional(),
    form: z
      .string()
      .max(maxAnswerBytes * 3 + 4096)
      .optional(),
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
      const form = args.form === undefined ? undefined : new URLSearchParams(args.form);
      if (args.question !== undefined) {
        const question: FormQuestion = args.question;
        const bytes = utf8(canonicalize(question) ?? '').length;
        if (bytes > maxPageBytes) {
          return result(
            { status: 'closed', message: `The question is too large (${bytes} bytes; the most is ${maxPageBytes}).` },
            true,
          );
        }
        if (form === undefined) return result({ status: 'form', form: appForm(question) });
        const checked = await checkSubmission(question, form, maxAnswerBytes, 'question app');
        if (!checked.ok)
          return result({ status: 'invalid', form: appForm(question, form, checked.summary, checked.fieldErrors) });
        return result({ status: 'checked', answer: checked.answer });
      }
      if (args.page === undefined || form === undefined)
        return result({ status: 'closed', message: NOTHING_TO_ANSWER }, true);
      const page = isPageId(args.page) ? await store.page(args.page) : undefined;
      if (page === undefined || (page.principal !== undefined && page.principal !== options.principal(ctx))) {
        return result({ status: 'closed', message: CLOSED_QUESTION });
      }
      const checked = await checkSubmission(page, form, maxAnswerBytes, 'question app');
      if (!checked.ok)
        return result({ status: 'invalid', form: appForm(page, form, checked.summary, checked.fieldErrors) });
      if (!(await store.submit(page.pageId, checked.answer)))
        return result({ status: 'closed', message: CLOSED_QUESTION });
      return result({ status: 'answered', action: checked.answer.action });
    },
  );
}
