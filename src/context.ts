/** The key of the internal completion-notifier factory on a legacy {@link ToolContext} (not exported from the package). */
export const elicitationCompleter = Symbol('mcp-resolve.elicitation-completer');

/** The key of the internal request observer on a {@link ToolContext} (set only when the server has `telemetry`). */
export const requestTrace = Symbol('mcp-resolve.request-trace');

/** The key of the internal answer size limit on a {@link ToolContext} (the server's `maxAnswerBytes`). */
export const answerLimit = Symbol('mcp-resolve.answer-limit');

/** The key of the internal counter of refused answers on a {@link ToolContext} (the server's `answerAttempts`, for this call's person and tool). */
export const answerAttempts = Symbol('mcp-resolve.answer-attempts');

/** The key of the internal tickets of the server on a {@link ToolContext} (minted under its sealing keys, `state/tickets.ts`). */
export const serverTickets = Symbol('mcp-resolve.server-tickets');

/**
 * The key of the internal channels of a call on a {@link ToolContext} (set by the round when the
 * server has channels beyond in-band): the server's channel providers and
 * who asks, for a handler that builds its own round strategy (`journaled`). Its value is typed as
 * `CallChannels` in `channels/channel.ts` (`ChannelContext` there is this context with the field);
 * it is not declared on `ToolContext` itself because channels are built on this module.
 */
export const callChannels = Symbol('mcp-resolve.call-channels');

/** What resolvers and tool bodies receive as their context. */
import type { ClientCapabilities, ServerContext } from '@modelcontextprotocol/server';

import type { Era } from './era.js';
import type { AttemptCounter } from './state/attemptStore.js';
import type { Tickets } from './state/tickets.js';
import type { RequestTrace } from './telemetry/hooks.js';

export type { Era } from './era.js';

/**
 * The SDK's request context plus the request's era and the client's declared capabilities. On a
 * multi-round call `mcpReq.requestState()` returns the state the handler minted, already unsealed.
 */
export type ToolContext = ServerContext & {
  readonly era: Era;
  /**
   * Internal: on a legacy connection, makes the SDK's `notifications/elicitation/complete` sender for
   * an elicitation id, bound to the connection the call came in on (so it never reaches another session).
   */
  readonly [elicitationCompleter]?: (elicitationId: string) => () => Promise<void>;
  /** Internal: this request's observer, when the server has `telemetry`. */
  readonly [requestTrace]?: RequestTrace;
  /** Internal: the largest answer the server accepts, in bytes (`maxAnswerBytes`). */
  readonly [answerLimit]?: number;
  /** Internal: where this call's refused answers are counted (`answerAttempts`). */
  readonly [answerAttempts]?: AttemptCounter;
  /** Internal: the tickets this server mints and recognizes (an app's re-run call sends one back). */
  readonly [serverTickets]?: Tickets;
  /** What the client declared it can answer (the request's envelope on modern, `initialize` on legacy). */
  readonly clientCapabilities: ClientCapabilities | undefined;
};

/**
 * `mcpReq` with `requestState()` answering `state` (plaintext: already unsealed, or a wrapper's own).
 * The one place the accessor is replaced: the round hands a handler its state through it, and the
 * handler-shape wrappers hand their bodies theirs.
 */
export function withStateAccessor(mcpReq: ServerContext['mcpReq'], state: string | undefined): ServerContext['mcpReq'] {
  // The SDK types the accessor as `<T>() => T` (a compile-time cast for callers): this is its one implementation.
  return Object.assign({}, mcpReq, { requestState: <T>() => state as T });
}
