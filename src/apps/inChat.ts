/**
 * The question app in the chat: the channel of a form question on a client that renders MCP Apps
 * but shows no forms. Tools that may ask declare the app in `tools/list` for such clients only; a
 * call that must ask ends with an `isError` result carrying the question under `_meta` (the form,
 * the page id to answer under, the call's ticket), which the host shows in the app with the result.
 * The person answers there (`mcp_resolve_answer`, bound like a page answer: principal, tool,
 * arguments, question digest and the call's ticket; single use), then the app calls the tool again
 * with the same arguments and the ticket, and that call finds the answer and goes on.
 */
import type { CallToolResult, ClientCapabilities, Tool } from '@modelcontextprotocol/server';

import type { AskingCall, ChannelProvider, OutOfBandChannel, ToolListing } from '../channels/channel.js';
import { showsForms } from '../channels/choice.js';
import type { Tickets } from '../state/tickets.js';
import { answersElsewhere } from '../pageStore/answersElsewhere.js';
import type { FormPages } from '../pageStore/pages.js';
import { formMessageOf, pageBindingOf } from '../pageStore/pages.js';
import type { Question } from '../questions/render.js';
import { appForm } from './answerTool.js';
import type { AppQuestion } from './wire.js';
import { QUESTION_APP_URI, QUESTION_META, showsApps, TICKET_META, withApp } from './wire.js';

/**
 * The call's ticket: the one the app sent back on its `tools/call` (`_meta`) when this server (or
 * its fleet) minted it, else a fresh one; a ticket the client chose itself is never taken.
 */
export function ticketOf(tickets: Tickets, meta: Readonly<Record<string, unknown>> | undefined): string {
  return tickets.recognized(meta?.[TICKET_META]) ?? tickets.mint();
}

/** The text the model reads while the person answers in the app. */
export function inChatText(question: Question): string {
  return (
    'The person is asked a question in the app shown with this result; it is not an error to report. ' +
    `Do not call this tool again: once they answer, the app runs the call and its result reaches you.\n` +
    `The question: ${formMessageOf(question)}`
  );
}

/** The in-chat hand-off of `question`: the result's text for the model and the app's question under `_meta`. */
export function inChatHandOff(question: Question, appQuestion: AppQuestion): CallToolResult {
  const content = [{ type: 'text' as const, text: inChatText(question) }];
  return { content, isError: true, _meta: { [QUESTION_META]: appQuestion } };
}

/** The channel on one round of `call`, over `pages` (the app's own store). */
function inChatChannel(call: AskingCall, pages: FormPages): OutOfBandChannel {
  const { ctx } = call;
  const { tickets } = call.round;
  if (tickets === undefined) throw new Error('inChatChannel: the context carries no tickets (built outside a round).');
  const ticket = ticketOf(tickets, ctx.mcpReq._meta);
  const bindingOf = (question: Question) => pageBindingOf(call.caller(), ticket, question);
  const answers = answersElsewhere(call.round, pages, bindingOf);
  return {
    way: 'out-of-band',
    admit() {},
    recall: answers.recall,
    async handOff(question) {
      const asked = answers.asked(question);
      const page = await pages.openPage(bindingOf(question), asked, ctx.http?.req);
      await answers.keepTaken();
      const { target, arguments: args } = call.caller();
      // The page's own question: what the app's answer is checked against, and the form shown on a refusal.
      return inChatHandOff(asked, {
        page: page.pageId,
        ticket,
        tool: target,
        arguments: args ?? {},
        form: appForm(page),
      });
    },
  };
}

/** The in-chat question app over `pages`: for clients that render apps and show no forms. */
export function inChatAppChannel(pages: FormPages): ChannelProvider {
  return {
    serves: (declared: ClientCapabilities | undefined) => showsApps(declared),
    open: (call) => inChatChannel(call, pages),
  };
}

/** The `tools/list` entry of a tool that may ask, as a client that renders apps and shows no forms sees it: with the app. */
export const inChatToolListing: ToolListing = (tool: Tool, mayAsk, declared) => {
  if (!mayAsk || !showsApps(declared) || showsForms(declared)) return tool;
  // The flat key too: hosts built on older MCP Apps drafts read only that one.
  return { ...tool, _meta: { ...withApp(tool._meta), 'ui/resourceUri': QUESTION_APP_URI } };
};
