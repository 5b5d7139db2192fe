/** The types every handler-shape wrapper shares: what a handler returns and the tool body it becomes. */
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';

import { amendedContext, type ToolContext, withStateAccessor } from '../context.js';

/** What a wrapped handler returns: text, or a full tool result. */
export type HandlerResult = string | CallToolResult;

/**
 * The tool body a wrapper returns, for a tool whose validated arguments are `TArgs`. Passed as the body
 * of `.tool(name, { input }, body)`, `TArgs` is inferred from `input`, so handler parameters
 * need no annotations.
 */
export type WrappedBody<TArgs> = (args: TArgs, ctx: ToolContext) => Promise<HandlerResult | InputRequiredResult>;

/** `ctx` with `mcpReq.requestState()` answering `state`: how a wrapper hands a body its own state. */
export function withRequestState(ctx: ToolContext, state: string | undefined): ToolContext {
  return amendedContext(ctx, { mcpReq: withStateAccessor(ctx.mcpReq, state) });
}
