/**
 * The page by link: the channel of a form question on a client without elicitation. The call ends
 * with a tool result carrying the link, in words a model passes on; the person answers on the page,
 * and calling the tool again with the same arguments finds the answer. That later call is a new call
 * with no state, so the page is bound to what it still shares with the first: the session id on
 * 2025-11-25, else the authenticated principal. An anonymous 2026-07-28 caller holds neither, so the
 * question fails as it would without pages (-32021), unless the server accepts that callers making
 * the same call share answers (`anonymousLinksShareAnswers`).
 */
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/server';

import type { AskingCall, ChannelProvider, OutOfBandChannel } from '../channels/channel.js';
import { assertCapability } from '../questions/capabilities.js';
import type { Question } from '../questions/render.js';
import { checkedUrl } from '../questions/urlQuestion.js';
import { answersElsewhere } from '../pageStore/answersElsewhere.js';
import { formMessageOf, pageBindingOf } from '../pageStore/pages.js';
import type { PageLinks } from './links.js';

/**
 * The tool result that hands the person the link (an `isError` result, never a protocol error): in
 * words a model passes on, to open the page, answer, then ask to try again.
 */
export function pageLinkResult(question: Question, url: string): CallToolResult {
  const text =
    `Before this can go on, the person must answer a question on a web page. Show them this link and ask them to open it: ${checkedUrl(url)}\n` +
    `The question: ${formMessageOf(question)}\n` +
    'Once they have answered there, call this tool again with the same arguments to continue.';
  return { content: [{ type: 'text', text }], isError: true };
}

/** Why an anonymous call gets no link, appended to the -32021 message. */
const ANONYMOUS_LINKS =
  'This server sends an answer-page link to a client without elicitation only for an authenticated caller: ' +
  'a link answered between two calls would otherwise be found by anyone making the same call. Authenticate ' +
  'callers, or set the answerPage option anonymousLinksShareAnswers: true to accept that risk.';

/** The page by link over `pages`; `shareAnonymous`: anonymous callers making the same call share its page. */
export function pageLinkChannel(pages: PageLinks, shareAnonymous: boolean): ChannelProvider {
  return {
    serves: (declared: ClientCapabilities | undefined) => declared?.elicitation === undefined,
    open: (call) => linkChannel(call, pages, shareAnonymous),
  };
}

function linkChannel(call: AskingCall, pages: PageLinks, shareAnonymous: boolean): OutOfBandChannel {
  const { ctx } = call;
  // What the call made again still holds: its 2025-11-25 session (the same client).
  const session = ctx.era === 'legacy' ? ctx.sessionId : undefined;
  const bindingOf = (question: Question) => pageBindingOf(call.caller(), session, question);
  const answers = answersElsewhere(call.round, pages, bindingOf);
  return {
    way: 'out-of-band',
    admit(question) {
      if (session !== undefined || shareAnonymous || call.caller().principal !== undefined) return;
      assertCapability(ctx.clientCapabilities, question.rendered, question.label, ANONYMOUS_LINKS);
    },
    recall: answers.recall,
    async handOff(question) {
      const asked = answers.asked(question);
      const url = await pages.open(bindingOf(question), asked, ctx.http?.req);
      await answers.keepTaken();
      return pageLinkResult(asked, url);
    },
  };
}
