/** The era of a request, and era dispatch (option D): one body per era behind one tool. */
import type { InputRequiredResult } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { eraOf } from '../server/requestEra.js';
import type { ToolInput } from '../server/tool.js';
import type { ArgsOf, HandlerResult, WrappedBody } from './body.js';

export { eraOf };

/** A tool body for one era. */
export type EraBody<TInput extends ToolInput> = (
  args: ArgsOf<TInput>,
  ctx: ToolContext,
) => HandlerResult | InputRequiredResult | Promise<HandlerResult | InputRequiredResult>;

/** Builds one tool body (for a tool whose input is `input`) that runs `modern` on 2026-07-28 requests and `legacy` on 2025-11-25 sessions. */
export function byEra<TInput extends ToolInput>(
  _input: TInput,
  bodies: { readonly modern: EraBody<TInput>; readonly legacy: EraBody<TInput> },
): WrappedBody<TInput> {
  const { modern, legacy } = bodies;
  return async (args: ArgsOf<TInput>, ctx: ToolContext) =>
    ctx.era === 'modern' ? modern(args, ctx) : legacy(args, ctx);
}
