/** Starting and ending a request's observer at the call site (one `undefined` check when the server observes nothing). */
import type { ServerContext } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';

import { eraOf, protocolVersionOf } from './requestEra.js';
import type { RequestTrace } from '../telemetry/hooks.js';
import type { InstanceServices } from './services.js';

/** Starts the observer of a request to `target`, or `undefined` when the server has no `telemetry` (or it failed). */
export function startTrace(
  services: InstanceServices,
  ctx: ServerContext,
  method: string,
  target: string,
  params: { readonly arguments?: Record<string, unknown>; readonly _meta?: Record<string, unknown> },
): RequestTrace | undefined {
  const { telemetry } = services;
  if (telemetry === undefined) return undefined;
  const era = eraOf(ctx);
  try {
    return telemetry.request({
      method,
      target,
      requestId: ctx.mcpReq.id,
      protocolVersion: protocolVersionOf(ctx, services.server, era),
      era,
      arguments: params.arguments ?? {},
      meta: params._meta,
      startedAt: services.inbound?.claim(ctx.mcpReq.id) ?? Date.now(),
    });
  } catch {
    return undefined;
  }
}

/** A result as the trace reads it: `isError` on a tool result, `resultType: 'task'` on a created task. */
interface EndedResult {
  readonly isError?: boolean;
  readonly resultType?: string;
}

/** Ends `trace` (when the request has one) with how `result` ended the round; returns `result`. */
export function endTrace<T extends object>(trace: RequestTrace | undefined, result: T): T {
  if (trace === undefined) return result;
  const ended: EndedResult = result;
  if (isInputRequiredResult(result)) trace.end('input_required');
  else if (ended.resultType === 'task') trace.end('task');
  else trace.end(ended.isError === true ? 'tool_error' : 'completed');
  return result;
}

/** Ends `trace` (when the request has one) with the error that ended the round; returns `error`, to rethrow. */
export function failTrace(trace: RequestTrace | undefined, error: unknown): unknown {
  trace?.end('error', error);
  return error;
}
