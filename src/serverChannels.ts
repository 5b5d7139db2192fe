/**
 * The one registration of a server's channels beyond in-band: each option that turns a channel on
 * adds its providers, in the priority they are chosen in (`channels/choice.ts`), and the HTTP routes
 * it serves. A new channel is one module and one line here.
 */
import type { ServerChannels } from './channels/channel.js';
import type { AnswerPageOptions } from './answerPage/options.js';
import { answerPageChannels } from './answerPage/options.js';

/** The options of `McpResolveServer` that turn channels on. */
export interface ChannelOptions {
  /**
   * Asks form questions on a page the server serves (opt-in) when the client shows no forms: as a
   * URL question where the client declares URL elicitation, else by a link in the tool result (see
   * docs/guides/questions-everywhere.md). HTTP hosting serves the pages beside the MCP endpoint.
   * `{}` turns it on with defaults.
   * @default undefined — no pages: such a question fails with -32021, as before
   */
  readonly answerPage?: AnswerPageOptions;
}

/** Failures behind a page that could not be shown (a store that failed): one line on stderr. */
function reportPageFailure(error: Error): void {
  console.error(`mcp-resolve: an answer page could not be served: ${error.message.replace(/\s+/g, ' ')}`);
}

/** The channels and routes `options` turn on, checked and built once (at construction, naming `api`). */
export function serverChannelsOf(api: string, options: ChannelOptions): ServerChannels {
  const answerPage =
    options.answerPage === undefined ? undefined : answerPageChannels(api, options.answerPage, reportPageFailure);
  // Priority order: [in-chat app, next] → page by URL → page by link.
  return {
    providers: [...(answerPage?.providers ?? [])],
    httpRoutes: answerPage === undefined ? [] : [answerPage.route],
    setups: [],
    toolListings: [],
  };
}
