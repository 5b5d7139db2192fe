/** The types every handler-shape wrapper shares: what a handler returns and the tool body it becomes. */
import type { CallToolResult } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';

import type { ToolBody, ToolInput } from '../server/tool.js';

/** What a wrapped handler returns: text, or a full tool result. */
export type HandlerResult = string | CallToolResult;

/**
 * The tool body a wrapper returns, typed for `.tool(name, { input }, body)` with that same `input`
 * (and no resolvers), so handler parameters need no annotations.
 */
export type WrappedBody<TInput extends ToolInput> = ToolBody<TInput, Record<never, never>, undefined>;

/** The validated arguments of a tool whose input is `TInput` (its `InputValues`), as its body receives them. */
export type ArgsOf<TInput extends ToolInput> = Parameters<WrappedBody<TInput>>[0];

/** `ctx` with `mcpReq.requestState()` answering `state`: how a wrapper hands a body its own state. */
export function withRequestState(ctx: ToolContext, state: string | undefined): ToolContext {
  // The SDK types the accessor as `<T>() => T` (a compile-time cast for callers): this is its one implementation.
  return { ...ctx, mcpReq: { ...ctx.mcpReq, requestState: <T>() => state as T } };
}
