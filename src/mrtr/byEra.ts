/** The era of a request, and era dispatch: one body per era behind one tool. */
import type { InputRequiredResult } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { eraOf } from '../round/requestEra.js';
import type { HandlerResult, WrappedBody } from './body.js';

export { eraOf };

/** A tool body for one era. */
export type EraBody<TArgs> = (
  args: TArgs,
  ctx: ToolContext,
) => HandlerResult | InputRequiredResult | Promise<HandlerResult | InputRequiredResult>;

/** Builds one tool body that runs `modern` on 2026-07-28 requests and `legacy` on 2025-11-25 sessions. */
export function byEra<TArgs>(bodies: {
  readonly modern: EraBody<TArgs>;
  readonly legacy: EraBody<TArgs>;
}): WrappedBody<TArgs> {
  const { modern, legacy } = bodies;
  return async (args: TArgs, ctx: ToolContext) => (ctx.era === 'modern' ? modern(args, ctx) : legacy(args, ctx));
}
