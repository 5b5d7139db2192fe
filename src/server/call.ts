/**
 * Serving one `tools/call` for a compiled tool: open the sealed state (before anything runs),
 * validate arguments, run a round of resolvers on the request's era, then run the body, and
 * project the result. Tool failures become `isError` results (masked, see masking.ts); protocol failures (the frozen
 * requestState error, the -32021 capability gate, sealing-side faults) stay JSON-RPC errors.
 */
import type { CallToolRequest, CallToolResult, InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { isInputRequiredResult, ProtocolError } from '@modelcontextprotocol/server';

import type { RoundScope, RoundServices } from './roundScope.js';
import { isPromiseLike } from '../promise.js';
import { openRound } from './roundScope.js';
import type { CompiledTool } from './tool.js';

const MIXED_FLOW =
  'the multi-round flow is driven either by resolvers or by the tool body: a tool with resolved parameters cannot return input_required itself';

/** A tool error result carrying `message`. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Normalises what a body returned into a `tools/call` result. */
function toResult(tool: CompiledTool, value: unknown): CallToolResult {
  if (tool.output !== undefined) {
    return {
      content: [{ type: 'text', text: JSON.stringify(value) }],
      structuredContent: value,
    };
  }
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  return value as CallToolResult;
}

/** A value now, or later. */
type MaybePromise<T> = T | Promise<T>;

/** Applies `next` to `value` now when it is not a promise: the call path awaits only what is async. */
function then<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromiseLike(value) ? value.then(next) : next(value);
}

type CallResult = CallToolResult | InputRequiredResult;

/**
 * Serves one `tools/call` round for `tool`, top to bottom: open the state, validate the input,
 * resolve, run the body, check and project the result. Each step is awaited only when it is
 * asynchronous, so a call that asks nothing and awaits nothing is answered synchronously.
 */
export function callTool(
  tool: CompiledTool,
  request: CallToolRequest,
  sdkCtx: ServerContext,
  services: RoundServices,
): MaybePromise<CallResult> {
  const rawArgs = request.params.arguments ?? {};
  const round = openRound(sdkCtx, { method: 'tools/call', target: tool.name, arguments: rawArgs }, services);
  return then(round, (scope) =>
    then(validateInput(tool, rawArgs), (input) =>
      input.ok ? runTool(tool, input.args, scope, services) : input.result,
    ),
  );
}

/** The validated arguments, or the `isError` result that ends the call. */
export type ValidatedInput =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly result: CallToolResult };

const NO_INPUT: ValidatedInput = { ok: true, args: {} };

/** Validates a call's arguments against the tool's input. */
export function validateInput(tool: CompiledTool, rawArgs: Record<string, unknown>): MaybePromise<ValidatedInput> {
  if (tool.input === undefined) return NO_INPUT;
  return then(tool.input['~standard'].validate(rawArgs), (parsed): ValidatedInput => {
    if (!parsed.issues) return { ok: true, args: parsed.value as Record<string, unknown> };
    const detail = parsed.issues.map((issue) => issue.message).join('; ');
    return {
      ok: false,
      result: toolError(`Input validation error: Invalid arguments for tool ${tool.name}: ${detail}`),
    };
  });
}

/** Resolves, runs the body and finishes the result; a tool failure becomes a masked `isError` result. */
function runTool(
  tool: CompiledTool,
  args: Record<string, unknown>,
  round: RoundScope,
  services: RoundServices,
): MaybePromise<CallResult> {
  const fail = (error: unknown): CallToolResult => toolFailure(error, tool, services);
  try {
    const outcome = then(round.resolve(tool.plan, args), (resolved) => {
      if (isInputRequiredResult(resolved)) return resolved;
      return then(tool.body({ ...args, ...resolved }, round.ctx), (value) => finish(tool, value, round, services));
    });
    return isPromiseLike(outcome) ? outcome.catch(fail) : outcome;
  } catch (error) {
    return fail(error);
  }
}

/**
 * A failure inside a call of `tool`: protocol errors stay JSON-RPC errors (rethrown), anything
 * else is the tool's error result, its message masked unless it is a `ToolError` or the library's.
 */
export function toolFailure(error: unknown, tool: CompiledTool, services: RoundServices): CallToolResult {
  if (error instanceof ProtocolError) throw error;
  return toolError(services.maskError(error, { method: 'tools/call', name: tool.name }));
}

/** Turns what the body returned into the round's result: sealed `input_required`, or the checked, projected result. */
function finish(
  tool: CompiledTool,
  value: unknown,
  round: RoundScope,
  services: RoundServices,
): MaybePromise<CallResult> {
  if (isInputRequiredResult(value)) {
    if (tool.plan.params.length > 0) return toolError(MIXED_FLOW);
    const state = value.requestState;
    return state === undefined ? value : round.seal(state).then((sealed) => ({ ...value, requestState: sealed }));
  }
  return checkedResult(tool, value, services);
}

/** A body's (non-`input_required`) value as the call's result: normalised, output-checked, projected. */
export function checkedResult(
  tool: CompiledTool,
  value: unknown,
  services: RoundServices,
): MaybePromise<CallToolResult> {
  const result = toResult(tool, value);
  if (tool.output === undefined || result.isError)
    return services.server.projectCallToolResult(result, tool.outputJson);
  return then(tool.output['~standard'].validate(result.structuredContent), (checked) => {
    if (!checked.issues) return services.server.projectCallToolResult(result, tool.outputJson);
    const detail = checked.issues.map((issue) => issue.message).join('; ');
    return toolError(`Output validation error: Invalid structured content for tool ${tool.name}: ${detail}`);
  });
}
