/**
 * The one registration of a server's channels beyond in-band: each option that turns a channel on
 * adds its providers, in the priority they are chosen in (`channels/choice.ts`), and the HTTP routes
 * it serves. A new channel is one module and one line here.
 */
import type { ServerContext } from '@modelcontextprotocol/server';

import type { ServerChannels } from './channels/channel.js';
import type { AnswerPageOptions } from './answerPage/options.js';
import { DEFAULT_ANSWER_PAGE_PATH } from './answerPage/handler.js';
import { answerPageChannels } from './answerPage/options.js';
import type { AppsOptions } from './apps/options.js';
import { appsChannels } from './apps/options.js';
import type { MaskingOptions } from './round/masking.js';
import { createErrorMasker } from './round/masking.js';

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
  /**
   * Renders form questions as MCP Apps (opt-in; the app is built into the package, no peer needed):
   * attached to the form where the client negotiated SEP-3118, and in the chat, with the tool's
   * result, for clients that render apps and show no forms (see docs/guides/questions-everywhere.md).
   * `{}` turns both on.
   * @default undefined — no app: nothing is listed or attached
   */
  readonly apps?: AppsOptions;
}

/**
 * Where failures behind a page that could not be shown go (a store that failed, a provider that
 * refused a sign-in): to the server's `onerror`, as `answer page` failures under the ref the page
 * shows, with the page path as the name; without one, one line on stderr.
 */
function pageFailureSink(options: MaskingOptions, path: string): (error: Error, ref: string) => void {
  const { onerror } = options;
  if (onerror === undefined) {
    return (error) =>
      console.error(`mcp-resolve: an answer page could not be served: ${error.message.replace(/\s+/g, ' ')}`);
  }
  return (error, ref) => onerror(error.cause ?? error, { ref, method: 'answer page', name: path });
}

/**
 * The channels and routes `options` turn on, checked and built once (at construction, naming
 * `api`); `principal` reads a request's principal (the server's option). Answers given on a page or
 * in the app are held to the server's `maxAnswerBytes`, as in-band ones are (an invalid value is
 * left to the server's own check, which names it), and a failure of the app's tool is masked as a
 * tool's is (`onerror`, `exposeErrorMessages`).
 */
export function serverChannelsOf(
  api: string,
  options: ChannelOptions & MaskingOptions & { readonly maxAnswerBytes?: number },
  principal: (ctx: ServerContext) => string | undefined,
): ServerChannels {
  const { maxAnswerBytes } = options;
  const answerBound =
    maxAnswerBytes !== undefined && Number.isSafeInteger(maxAnswerBytes) && maxAnswerBytes > 0
      ? { maxAnswerBytes }
      : {};
  const answerPage =
    options.answerPage === undefined
      ? undefined
      : answerPageChannels(
          api,
          { ...options.answerPage, ...answerBound },
          pageFailureSink(options, options.answerPage.path ?? DEFAULT_ANSWER_PAGE_PATH),
        );
  const apps =
    options.apps === undefined
      ? undefined
      : appsChannels(api, { ...options.apps, ...answerBound }, principal, createErrorMasker(options));
  // Priority order: app attached to the form (SEP-3118) → in-chat app → page by URL → page by link.
  return {
    providers: [...(apps?.providers ?? []), ...(answerPage?.providers ?? [])],
    httpRoutes: answerPage === undefined ? [] : [answerPage.route],
    setups: apps?.setups ?? [],
    toolListings: apps?.toolListings ?? [],
  };
}
