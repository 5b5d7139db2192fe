/** Starting and ending a request's observer at the call site (one `undefined` check when the server observes nothing). */
import type { ServerContext } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';

import type { RoundServices } from './roundScope.js';
import { eraOf, protocolVersionOf } from './requestEra.js';
import { isPromiseLike } from '../promise.js';
import type { RequestTrace } from '../telemetry/hooks.js';

/** Starts the observer of a request to `target`, or `undefined` when the server has no `telemetry` (or it failed). */
export function startTrace(
  services: RoundServices,
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

/** Ends `trace` with how `result` (a value, a promise, or a thrown error) ended the round; returns `result` unchanged. */
export function endTrace<T extends object>(trace: RequestTrace, result: () => T | Promise<T>): T | Promise<T> {
  let value: T | Promise<T>;
  try {
    value = result();
  } catch (error) {
    trace.end('error', error);
    throw error;
  }
  if (!isPromiseLike(value)) return ended(trace, value);
  return value.then(
    (settled) => ended(trace, settled),
    (error: unknown) => {
      trace.end('error', error);
      throw error;
    },
  );
}

function ended<T extends object>(trace: RequestTrace, value: T): T {
  const result: EndedResult = value;
  if (isInputRequiredResult(value)) trace.end('input_required');
  else if (result.resultType === 'task') trace.end('task');
  else trace.end(result.isError === true ? 'tool_error' : 'completed');
  return value;
}
