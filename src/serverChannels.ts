/**
 * The one registration of a server's channels beyond in-band: each option that turns channels on
 * gives one {@link ServerChannel} per channel, and they are merged here, in {@link CHANNEL_ORDER}
 * (the order `channels/choice.ts` chooses them in), into what the round and the hosting read. A new
 * channel is one module, its name in `CHANNEL_ORDER`, and its option's line here.
 */
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';

import type { ChannelProvider, HttpRoute, ServerChannel, ToolListing } from './channels/channel.js';
import { CHANNEL_ORDER } from './channels/channel.js';
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

/** The channels a server is configured with beyond in-band, merged: what the round and the hosting read. */
export interface ServerChannels {
  /** In {@link CHANNEL_ORDER}: the first that serves a client without forms carries its form questions. */
  readonly providers: readonly ChannelProvider[];
  readonly httpRoutes: readonly HttpRoute[];
  /** Added to each SDK instance before the server's `setup()` callbacks. */
  readonly setups: ReadonlyArray<(mcp: McpServer) => void>;
  /** Applied in order to each `tools/list` entry (library and SDK-registered tools) per client. */
  readonly toolListings: readonly ToolListing[];
}

/** `channels` merged in {@link CHANNEL_ORDER}; a route, setup or listing two of them share is kept once. */
export function mergedChannels(channels: readonly ServerChannel[]): ServerChannels {
  const ordered = [...channels].sort((a, b) => CHANNEL_ORDER.indexOf(a.name) - CHANNEL_ORDER.indexOf(b.name));
  const each = <T>(part: (channel: ServerChannel) => readonly T[] | undefined): T[] => [
    ...new Set(ordered.flatMap((channel) => part(channel) ?? [])),
  ];
  return {
    providers: ordered.map((channel) => channel.provider),
    httpRoutes: each((channel) => channel.routes),
    setups: each((channel) => channel.setups),
    toolListings: each((channel) => channel.listings),
  };
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
      ? []
      : answerPageChannels(
          api,
          { ...options.answerPage, ...answerBound },
          pageFailureSink(options, options.answerPage.path ?? DEFAULT_ANSWER_PAGE_PATH),
        );
  const apps =
    options.apps === undefined
      ? []
      : appsChannels(api, { ...options.apps, ...answerBound }, principal, createErrorMasker(options));
  return mergedChannels([...answerPage, ...apps]);
}
