/**
 * One `tools/call` round of a library tool, top to bottom ({@link serveToolCall}), and the steps a
 * task's background run shares with it: validate the input, run the body, check and project the
 * result, turn a failure into the tool's error result. Tool failures become `isError` results
 * (masked, see masking.ts); protocol failures (the frozen requestState error, the -32021 capability
 * gate, sealing-side faults) stay JSON-RPC errors.
 */
import type {
  CallToolRequest,
  CallToolResult,
  InputRequiredResult,
  ServerContext,
  StandardSchemaV1,
} from '@modelcontextprotocol/server';
import { isInputRequiredResult, ProtocolError } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { isPromiseLike } from '../promise.js';
import { isHandOff } from '../questions/strategy.js';
import type { RequestTrace } from '../telemetry/hooks.js';
import { endTrace, failTrace, openRoundState, startTrace } from './roundState.js';
import type { InstanceServices } from './services.js';
import type { CompiledTool } from './tool.js';

/** What a `tools/call` round answers: the tool's result, or `input_required` with its state sealed. */
export type ToolCallResult = CallToolResult | InputRequiredResult;

/**
 * Serves one `tools/call` round of `tool`, in the order the SDK's own handler runs its steps: open
 * the sealed state, validate the input, resolve, run the body, settle its `input_required`, check
 * and project the output; a failure is the tool's error result, or rethrown as a JSON-RPC error.
 * Each step is awaited only when it returned a promise: the call that asks nothing and awaits
 * nothing costs no microtask beyond this function's own (it runs on every call).
 */
export async function serveToolCall(
  tool: CompiledTool,
  request: CallToolRequest,
  sdkCtx: ServerContext,
  services: InstanceServices,
): Promise<ToolCallResult> {
  const args = request.params.arguments ?? {};
  const trace = startTrace(services, sdkCtx, 'tools/call', tool.name, request.params);
  try {
    // Before anything reads the arguments (the state's binding digests them): the SDK's element bound.
    const tooLarge = inputElementsError(tool, args, services.maxToolInputElements);
    if (tooLarge !== undefined) return endTrace(trace, tooLarge);
    // State not minted for exactly this call is refused with the frozen -32602, a JSON-RPC error.
    let state = openRoundState(sdkCtx, { method: 'tools/call', target: tool.name, arguments: args }, services, trace);
    if (isPromiseLike(state)) state = await state;
    let input = validateInput(tool, args);
    if (isPromiseLike(input)) input = await input;
    if (!input.ok) return endTrace(trace, input.error);
    let result: ToolCallResult;
    try {
      const resolving = state.resolve(tool.plan, input.args);
      const resolved = isPromiseLike(resolving) ? await resolving : resolving;
      // `input_required`, or a question handed to a person: the call's result as it is.
      if (isInputRequiredResult(resolved)) return endTrace(trace, resolved);
      if (isHandOff(resolved)) return endTrace(trace, resolved.result);
      let value = runBody(tool, input.args, resolved, state.ctx);
      if (isPromiseLike(value)) value = await value;
      // The body's own input_required is sealed, or refused when resolvers drive the flow.
      if (isInputRequiredResult(value)) return endTrace(trace, await state.sealAsked(value, tool.resolvedBy));
      const checked = checkedResult(tool, value, services);
      result = isPromiseLike(checked) ? await checked : checked;
    } catch (error) {
      result = toolFailure(error, tool, services, trace);
    }
    return endTrace(trace, result);
  } catch (error) {
    throw failTrace(trace, error);
  }
}

/** The default of `maxToolInputElements`: the most array elements and object members one call's arguments hold. */
export const DEFAULT_MAX_TOOL_INPUT_ELEMENTS = 10_000;

/**
 * The tool's error result when `args` holds more than `max` array elements and object members at
 * every depth (counting stops at `max + 1`), worded as the SDK's `registerTool` words it; else
 * `undefined`. `max` undefined: no bound.
 */
export function inputElementsError(
  tool: CompiledTool,
  args: Readonly<Record<string, unknown>>,
  max: number | undefined,
): CallToolResult | undefined {
  if (max === undefined || elementCount(args, max) <= max) return undefined;
  return toolError(
    `Invalid arguments for tool ${tool.name}: arguments contain more than the maximum of ${max} elements`,
  );
}

/** The array elements and object members (own keys) under `value`, counted up to `max + 1`. */
function elementCount(value: unknown, max: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (++count > max) return count;
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return count;
}

/** Runs the body of `tool` with its arguments and resolved values by name. */
export function runBody(
  tool: CompiledTool,
  args: Readonly<Record<string, unknown>>,
  resolved: Readonly<Record<string, unknown>>,
  ctx: ToolContext,
): unknown {
  // Object.assign, not a spread: faster on Node 20 (measured).
  return tool.body(Object.assign({}, args, resolved), ctx);
}

/** A tool error result carrying `message`. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** The validated arguments, or the tool error result that ends the round. */
export type ValidatedInput =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly error: CallToolResult };

/** A tool with no input: no arguments to validate. */
const NO_INPUT: ValidatedInput = { ok: true, args: {} };

/** Validates a call's arguments against the tool's input: at once when the schema answers synchronously (zod does). */
export function validateInput(
  tool: CompiledTool,
  rawArgs: Record<string, unknown>,
): ValidatedInput | Promise<ValidatedInput> {
  if (tool.input === undefined) return NO_INPUT;
  const parsed = tool.input['~standard'].validate(rawArgs);
  return isPromiseLike(parsed) ? parsed.then((settled) => inputOf(tool, settled)) : inputOf(tool, parsed);
}

/** The outcome of validating `tool`'s input. */
function inputOf(tool: CompiledTool, parsed: StandardSchemaV1.Result<unknown>): ValidatedInput {
  if (!parsed.issues) return { ok: true, args: parsed.value as Record<string, unknown> };
  const detail = parsed.issues.map(issueText).join('; ');
  return { ok: false, error: toolError(`Input validation error: Invalid arguments for tool ${tool.name}: ${detail}`) };
}

/** One input issue as the SDK's `registerTool` words it: `booking_id: Invalid input: …` (the path, dotted, first). */
function issueText(issue: StandardSchemaV1.Issue): string {
  if (!issue.path?.length) return issue.message;
  const path = issue.path.map((segment) => String(typeof segment === 'object' ? segment.key : segment));
  return `${path.join('.')}: ${issue.message}`;
}

/**
 * A failure inside a call of `tool`: protocol errors stay JSON-RPC errors (rethrown), anything
 * else is the tool's error result, its message masked unless it is a `ToolError` or the library's.
 */
export function toolFailure(
  error: unknown,
  tool: CompiledTool,
  services: InstanceServices,
  trace?: RequestTrace,
): CallToolResult {
  if (error instanceof ProtocolError) throw error;
  const masked = trace && ((ref: string) => trace.masked(ref, error));
  return toolError(services.maskError(error, { method: 'tools/call', name: tool.name }, masked));
}

/**
 * A body's (non-`input_required`) value as the call's result: normalised, output-checked,
 * projected; at once when the output schema answers synchronously. A hand-off (a `journaled`
 * body's question handed to a person) is the result as it is.
 */
export function checkedResult(
  tool: CompiledTool,
  value: unknown,
  services: InstanceServices,
): CallToolResult | Promise<CallToolResult> {
  if (isHandOff(value)) return value.result;
  const result = toResult(tool, value);
  if (tool.output === undefined || result.isError)
    return services.server.projectCallToolResult(result, tool.outputJson);
  const checked = tool.output['~standard'].validate(result.structuredContent);
  return isPromiseLike(checked)
    ? checked.then((settled) => outputOf(tool, result, settled, services))
    : outputOf(tool, result, checked, services);
}

/** The result once its structured content passed (projected) or failed (the tool's error) the output schema. */
function outputOf(
  tool: CompiledTool,
  result: CallToolResult,
  checked: StandardSchemaV1.Result<unknown>,
  services: InstanceServices,
): CallToolResult {
  if (!checked.issues) return services.server.projectCallToolResult(result, tool.outputJson);
  const detail = checked.issues.map((issue) => issue.message).join('; ');
  return toolError(`Output validation error: Invalid structured content for tool ${tool.name}: ${detail}`);
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
