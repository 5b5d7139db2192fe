/**
 * Channels: how a question reaches a person. A round's strategy (2026-07-28 `input_required`,
 * 2025-11-25 push, a task parked in `input_required`) asks each question through the channel chosen
 * for it (`chooseChannels`, choice.ts) and never knows which one it is. A channel either asks *in
 * band* — it gives the request to put on the wire under the question's key (the question itself, or
 * one that stands for it) and turns the client's response into the answer to read — or *out of
 * band* — it recalls an answer given elsewhere for this call and, while there is none, hands the
 * question off: the round ends the call with a tool result that tells the model how the person answers.
 *
 * The server's channels beyond in-band are registered in one place (`serverChannels.ts`): each
 * option that turns channels on gives a {@link ServerChannel} per channel (its
 * {@link ChannelProvider}, and the routes, setups and listings it adds), chosen in the one order
 * {@link CHANNEL_ORDER}; a channel that serves pages to a browser adds its {@link HttpRoute}, which
 * HTTP hosting serves beside the MCP endpoint.
 */
import type { CallToolResult, ClientCapabilities, InputRequest, McpServer, Tool } from '@modelcontextprotocol/server';

import type { RoundServices, ToolContext } from '../context.js';
import type { ElicitationResult } from '../questions/markers.js';
import type { Question } from '../questions/render.js';

/**
 * A channel that asks on the wire: the strategy sends what it gives and reads what it maps (on
 * 2025-11-25 it pushes that request and reads the response, unless the channel has its own `push`).
 */
export interface InBandChannel {
  readonly way: 'in-band';
  /** Throws the protocol error (-32021, or no back channel) when `question` cannot be asked this way; nothing is sent. */
  admit(question: Question): void;
  /** What goes on the wire under `question.key`, given the `request` the strategy would send for it. */
  request(question: Question, request: InputRequest): Promise<InputRequest>;
  /**
   * The answer to read for `question` from the client's `response` to that request: the response
   * itself, or the answer it stands for; `undefined` while there is none (the question is asked again).
   */
  answer(question: Question, response: unknown): Promise<unknown>;
  /**
   * 2025-11-25, for a channel whose answer is not the pushed request's response (the page by URL
   * waits for the page): pushes `question` on the call's connection, waiting at most `timeoutMs`
   * for the person, and returns its answer, read as in-band.
   */
  push?(question: Question, timeoutMs: number): Promise<ElicitationResult<unknown>>;
}

/** A channel that asks off the wire: the person answers elsewhere, then the call is made again. */
export interface OutOfBandChannel {
  readonly way: 'out-of-band';
  /** Throws the protocol error when `question` cannot be asked this way for this call; nothing is sent. */
  admit(question: Question): void;
  /** The answer given elsewhere for this call's `question`, read as an in-band one; `undefined` when none yet. */
  recall(question: Question): Promise<ElicitationResult<unknown> | undefined>;
  /** The call's result (an `isError` result) that ends it, telling the model how the person answers `question`. */
  handOff(question: Question): Promise<CallToolResult>;
}

/** How one question reaches a person. */
export type Channel = InBandChannel | OutOfBandChannel;

/** Who asks and for what: what an answer given elsewhere is bound to. */
export interface Caller {
  /** The authenticated principal (`undefined`: an anonymous server). */
  readonly principal: string | undefined;
  /** The tool (or prompt) that asks. */
  readonly target: string;
  /** Its arguments as received (absent counts as `{}`). */
  readonly arguments: unknown;
}

/** What a channel knows of the call that asks through it, on one round. */
export interface AskingCall {
  readonly ctx: ToolContext;
  /** The request's services (its trace, answer limit, attempt counter, tickets, completion sender). */
  readonly round: RoundServices;
  /** Who asks and for what. */
  caller(): Caller;
  /**
   * A random value only this call holds, the same on each of its rounds: sealed in its
   * `requestState` (2026-07-28), its task's id, or held in process (2025-11-25, one round per call).
   */
  secret(): string;
}

/** A channel the server is configured with, beyond in-band. */
export interface ChannelProvider {
  /**
   * Whether it reaches the person behind a client that declared `declared`: asked only when that
   * client shows no forms, unless the provider is {@link formsToo}.
   */
  serves(declared: ClientCapabilities | undefined): boolean;
  /**
   * An in-band variant for clients that show forms too (an app attached to the form question where
   * the client negotiated it): asked first for such clients, before the plain in-band channel.
   */
  readonly formsToo?: true;
  /** The channel for one round of `call`. */
  open(call: AskingCall): Channel;
}

/** A route a channel serves over HTTP beside the MCP endpoint (a page a person opens in a browser). */
export interface HttpRoute {
  /** Whether `request` is for this route. */
  owns(request: Request): boolean;
  /** Serves a request it owns (behind the host's Host check; a browser's `Origin: null` is let through). */
  serve(request: Request): Promise<Response>;
}

/**
 * A tool's `tools/list` entry as the client that declared `declared` sees it (a channel declares
 * its app on the tools that may ask, and lists its own tool only to clients that can use it);
 * `mayAsk`: the tool is the library's and has resolvers; `undefined`: not listed to that client.
 */
export type ToolListing = (tool: Tool, mayAsk: boolean, declared: ClientCapabilities | undefined) => Tool | undefined;

/**
 * The server's channels beyond in-band, in the order they are chosen in (`choice.ts`): the first
 * that serves a client carries its form questions. An app attached to the form (SEP-3118, for
 * clients that show forms), the app in the chat, the page by URL, the page by link.
 */
export const CHANNEL_ORDER = ['attached app', 'in-chat app', 'page by URL', 'page by link'] as const;

/** One channel a server can be configured with beyond in-band, by its place in {@link CHANNEL_ORDER}. */
export type ChannelName = (typeof CHANNEL_ORDER)[number];

/**
 * One channel as its option turns it on: its provider, and what it adds to the server. A route,
 * setup or listing two channels share (the same value, as both pages share the page route) is
 * added once.
 */
export interface ServerChannel {
  /** Where it stands in the order channels are chosen in. */
  readonly name: ChannelName;
  readonly provider: ChannelProvider;
  /** What it serves over HTTP beside the MCP endpoint (the page a person opens). */
  readonly routes?: readonly HttpRoute[];
  /** What it serves on the MCP connection (a resource, a tool, a capability), added to each SDK instance before the server's `setup()` callbacks. */
  readonly setups?: ReadonlyArray<(mcp: McpServer) => void>;
  /** How it changes the `tools/list` entries (library and SDK-registered tools) per client. */
  readonly listings?: readonly ToolListing[];
}

/** A round's view of the server's channels, in its services (`RoundServices.channels`). */
export interface CallChannels {
  readonly providers: readonly ChannelProvider[];
  /** Who asks and for what on this round. */
  caller(): Caller;
}

/** The call's channels in `round` (the round sets them), for a handler that builds its own strategy. */
export function callChannelsOf(round: RoundServices): CallChannels | undefined {
  // The one cast seam: the round sets `channels` only to a CallChannels (context.ts cannot name the type).
  return round.channels as CallChannels | undefined;
}
