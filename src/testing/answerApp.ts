/**
 * Answering the question app in a test as the app would, without a browser or a host: read the
 * question the client received (an in-chat tool result, or a SEP-3118 form question), send the
 * answer through `mcp_resolve_answer` as the app's form does, and, in the chat, make the call
 * again with its ticket, as the app does once the answer is stored.
 */
import type { CallToolResult, Client, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';

import { McpResolveError } from '../errors.js';
import type { AppQuestion, AttachedQuestion } from '../apps/wire.js';
import { ANSWER_TOOL, ELICITATION_META, QUESTION_META, TICKET_META } from '../apps/wire.js';
import { isRecord } from '../ownKeys.js';
import type { PageAction } from './answerPage.js';
import { formOf, refusalOf } from './answerPage.js';

const ANSWER_APP = 'answerApp()';

/** What the app showed once the answer was sent. */
export type AnsweredApp =
  /** In the chat: the answer was stored and the call made again with its ticket; `result` is what the model gets (or the next question). */
  | { readonly status: 'answered'; readonly result: CallToolResult }
  /** SEP-3118: the server checked the answer; `answer` is the `ElicitResult` the app gives the host (return it from `elicit`). */
  | { readonly status: 'checked'; readonly answer: ElicitResult }
  /** The form was shown again: why the answer was refused (`summary`, and field name → error); the question is still open. */
  | {
      readonly status: 'invalid';
      readonly summary: string | undefined;
      readonly fieldErrors: Readonly<Record<string, string>>;
    }
  /** The question takes no answer (answered already, expired, another call's or another person's); nothing was applied. */
  | { readonly status: 'closed'; readonly message: string };

/** What `mcp_resolve_answer` answered (its `structuredContent`). */
type ToolAnswer =
  | { status: 'form' | 'invalid'; form: string }
  | { status: 'answered' }
  | { status: 'checked'; answer: ElicitResult }
  | { status: 'closed'; message: string };

/** Calls the answer tool as the app does; a failed call (the client renders no apps, the server failed) is thrown. */
async function answerTool(client: Client, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = await client.callTool({ name: ANSWER_TOOL, arguments: args });
  if (result.isError === true || !isRecord(result.structuredContent)) {
    const text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    throw new McpResolveError('invalid_usage', `${ANSWER_APP}: ${ANSWER_TOOL} failed: ${text}`, {
      data: { api: ANSWER_APP },
    });
  }
  return result.structuredContent as ToolAnswer;
}

/** The question `received` carries for the app, in the chat or attached to a form question. */
function questionOf(received: CallToolResult | ElicitRequest['params']): AppQuestion | AttachedQuestion {
  const meta = received._meta;
  const question = meta?.[QUESTION_META] ?? meta?.[ELICITATION_META];
  if (!isRecord(question) || typeof question.page !== 'string') {
    throw new McpResolveError(
      'invalid_usage',
      `${ANSWER_APP}: what the client received carries no question for the app (_meta["${QUESTION_META}"] on a tool result, _meta["${ELICITATION_META}"] on a form question). Pass the tool result or the elicitation params a client that renders apps received.`,
      { data: { api: ANSWER_APP } },
    );
  }
  return question as unknown as AppQuestion | AttachedQuestion;
}

/**
 * Answers the question app as a person using it would, through `client` (a client that renders
 * MCP Apps, e.g. `connection.client` of a connection declaring the Apps extension). `received` is
 * what the client got: a tool result handing the question to the app in the chat, or the params of
 * a form question with the app attached (SEP-3118, in `elicit`). The answer is sent through
 * `mcp_resolve_answer` as the app's form sends it; in the chat the call is then made again with its
 * ticket, as the app does. A refused answer is returned, not thrown (`invalid`, the question still
 * open), and so is a closed question; throws when `received` carries no question for the app, or
 * when the answer tool fails.
 *
 * @example
 * ```ts
 * const asked = await connection.client.callTool({ name: 'refund', arguments: { order_id: 'ORD-1' } });
 * const answered = await answerApp(connection.client, asked, { action: 'accept', content: { amount: 12 } });
 * if (answered.status === 'answered') console.log(answered.result.content);
 * ```
 */
export async function answerApp(
  client: Client,
  received: CallToolResult | ElicitRequest['params'],
  answer: PageAction,
): Promise<AnsweredApp> {
  const question = questionOf(received);
  const { page } = question;
  const form = formOf(answer, ANSWER_APP).toString();
  const inChat = 'ticket' in question;
  if (!inChat) {
    // As the app first shows the page's form: a closed question says so before any answer.
    const shown = await answerTool(client, { page });
    if (shown.status === 'closed') return { status: 'closed', message: shown.message };
  }
  const sent = await answerTool(client, { page, form, ...(!inChat && { elicitation: true }) });
  switch (sent.status) {
    case 'invalid':
    case 'form':
      return { status: 'invalid', ...refusalOf(sent.form) };
    case 'closed':
      return sent;
    case 'checked':
      return { status: 'checked', answer: sent.answer };
    case 'answered': {
      const { tool, arguments: args, ticket } = question as AppQuestion;
      const result = await client.callTool({
        name: tool,
        arguments: isRecord(args) ? args : {},
        _meta: { [TICKET_META]: ticket },
      });
      return { status: 'answered', result };
    }
  }
}
