/**
 * The `apps` option of `McpResolveServer`: questions rendered as MCP Apps. It turns on, each unless
 * set `false`: SEP-3118 (the question app attached to form questions where the client negotiated
 * it) and the question app in the chat (clients that render apps and show no forms); either adds the
 * app's resource and its answer tool to every instance (the tool listed only to clients that render
 * apps), and SEP-3118 its capability to the server's.
 */
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';

import type { ServerChannel } from '../channels/channel.js';
import type { AnswerPageBackend } from '../pageStore/backend.js';
import { createFormPages } from '../pageStore/pages.js';
import { createAnswerPageStore } from '../pageStore/store.js';
import { answerToolListing, installAnswerTool } from './answerTool.js';
import { attachedAppChannel } from './attached.js';
import { inChatAppChannel, inChatToolListing } from './inChat.js';
import { installQuestionApp, questionAppDocument } from './resource.js';
import { checkedPageBackend } from '../optionChecks.js';
import type { ErrorMasker } from '../round/masking.js';
import { UI_EXTENSION } from './wire.js';

/** The `apps` option of `new McpResolveServer()`. */
export interface AppsOptions {
  /**
   * SEP-3118: attaches the question app to form questions for clients that declare form
   * elicitation and `elicitation` in the MCP Apps extension; the server declares it too. The
   * native form stays the fallback, and the answer is the standard `ElicitResult`. @default true
   */
  readonly attachToForms?: boolean;
  /**
   * Asks form questions in the question app, shown in the chat with the tool's result, for clients
   * that render MCP Apps and show no forms; such clients see the app declared on tools that may ask.
   * @default true
   */
  readonly inChat?: boolean;
  /** Where questions shown in the app and the answers given in the chat are kept (a fleet: over Redis). @default in memory, at most 16 MiB */
  readonly backend?: AnswerPageBackend;
  /** How long a question shown in the app stays open, and then how long an answer given in the chat waits, in ms. @default 900_000 (15 minutes) */
  readonly ttlMs?: number;
}

/**
 * Builds what the `apps` option adds to a server (checked here, at construction): the attached app
 * and the app in the chat, each unless set `false`, sharing one store, the app's resource and its
 * answer tool.
 */
export function appsChannels(
  api: string,
  options: AppsOptions & { readonly maxAnswerBytes?: number },
  principal: (ctx: ServerContext) => string | undefined,
  mask: ErrorMasker,
): ServerChannel[] {
  const document = questionAppDocument();
  const attach = options.attachToForms !== false;
  const inChat = options.inChat !== false;
  const store = createAnswerPageStore({
    ...(options.backend !== undefined && { backend: checkedPageBackend(api, 'apps.backend', options.backend) }),
    ...(options.ttlMs !== undefined && { ttlMs: options.ttlMs }),
    ...(options.maxAnswerBytes !== undefined && { maxAnswerBytes: options.maxAnswerBytes }),
  });
  const pages = createFormPages(store);
  // Shared by both: added once.
  const app = (mcp: McpServer) => {
    installQuestionApp(mcp, document);
    installAnswerTool(mcp, { store, principal, mask });
  };
  const declareAttached = (mcp: McpServer) =>
    mcp.server.registerCapabilities({ extensions: { [UI_EXTENSION]: { elicitation: {} } } });
  const channels: ServerChannel[] = [];
  if (attach) {
    const provider = attachedAppChannel(pages);
    channels.push({ name: 'attached app', provider, setups: [app, declareAttached], listings: [answerToolListing] });
  }
  if (inChat) {
    const listings = [inChatToolListing, answerToolListing];
    channels.push({ name: 'in-chat app', provider: inChatAppChannel(pages), setups: [app], listings });
  }
  return channels;
}
