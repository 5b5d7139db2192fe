/**
 * Serving one `tools/call` for a compiled tool: open the sealed state (before anything runs),
 * validate arguments, run a round of resolvers on the request's era, then run the body, and
 * project the result. Tool failures become `isError` results (masked, see masking.ts); protocol failures (the frozen
 * requestState error, the -32021 capability gate, sealing-side faults) stay JSON-RPC errors.
 */
import type {
  CallToolRequest,
  CallToolResult,
  InputRequiredResult,
  ServerContext,
  StandardSchemaV1,
} from '@modelcontextprotocol/server';
import { ProtocolError } from '@modelcontextprotocol/server';

import { isPromiseLike } from '../promise.js';
import type { RequestTrace } from '../telemetry/hooks.js';
import type { MaybePromise, RoundMethod, RoundRequest, Validated } from './pipeline.js';
import { serveRound } from './pipeline.js';
import type { RoundServices } from './roundScope.js';
import type { CompiledTool } from './tool.js';

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

type CallResult = CallToolResult | InputRequiredResult;

/** How a `tools/call` runs through the round pipeline. */
const TOOL_CALL: RoundMethod<CompiledTool, CallToolResult> = {
  method: 'tools/call',
  validate: validateInput,
  resolvedBy: (tool) => tool.resolvedBy,
  // Object.assign, not a spread: faster on Node 20 (measured).
  run: (tool, args, resolved, round) => tool.body(Object.assign({}, args, resolved), round.ctx),
  finish: checkedResult,
  fail: (tool, error, services, trace) => toolFailure(error, tool, services, trace),
};

/**
 * Serves one `tools/call` round for `tool`, top to bottom: open the state, validate the input,
 * resolve, run the body, check and project the result (see pipeline.ts).
 */
export function callTool(
  tool: CompiledTool,
  request: CallToolRequest,
  sdkCtx: ServerContext,
  services: RoundServices,
): MaybePromise<CallResult> {
  return serveRound(TOOL_CALL, tool, roundRequestOf(tool, request), sdkCtx, services);
}

/** A `tools/call` of `tool` as the round pipeline takes it. */
export function roundRequestOf(tool: CompiledTool, request: CallToolRequest): RoundRequest {
  return { target: tool.name, arguments: request.params.arguments ?? {}, params: request.params };
}

/** A tool with no input: no arguments to validate. */
const NO_INPUT: Validated<CallToolResult> = { ok: true, args: {} };

/** Validates a call's arguments against the tool's input. */
export function validateInput(
  tool: CompiledTool,
  rawArgs: Record<string, unknown>,
): MaybePromise<Validated<CallToolResult>> {
  if (tool.input === undefined) return NO_INPUT;
  const parsed = tool.input['~standard'].validate(rawArgs);
  return isPromiseLike(parsed) ? parsed.then((result) => inputOf(tool, result)) : inputOf(tool, parsed);
}

function inputOf(tool: CompiledTool, parsed: StandardSchemaV1.Result<unknown>): Validated<CallToolResult> {
  if (!parsed.issues) return { ok: true, args: parsed.value as Record<string, unknown> };
  const detail = parsed.issues.map(issueText).join('; ');
  return {
    ok: false,
    result: toolError(`Input validation error: Invalid arguments for tool ${tool.name}: ${detail}`),
  };
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
  services: RoundServices,
  trace?: RequestTrace,
): CallToolResult {
  if (error instanceof ProtocolError) throw error;
  const masked = trace && ((ref: string) => trace.masked(ref, error));
  return toolError(services.maskError(error, { method: 'tools/call', name: tool.name }, masked));
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
  const checked = tool.output['~standard'].validate(result.structuredContent);
  return isPromiseLike(checked)
    ? checked.then((outcome) => projected(tool, result, outcome, services))
    : projected(tool, result, checked, services);
}

/** The result as the wire carries it once its structured content passed (or failed) the output schema. */
function projected(
  tool: CompiledTool,
  result: CallToolResult,
  checked: StandardSchemaV1.Result<unknown>,
  services: RoundServices,
): CallToolResult {
  if (!checked.issues) return services.server.projectCallToolResult(result, tool.outputJson);
  const detail = checked.issues.map((issue) => issue.message).join('; ');
  return toolError(`Output validation error: Invalid structured content for tool ${tool.name}: ${detail}`);
}
