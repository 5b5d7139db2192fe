/**
 * Serving one `tools/call` for a compiled tool: open the sealed state (before anything runs),
 * validate arguments, run a round of resolvers on the request's era, then run the body, and
 * project the result. Tool failures become `isError` results (masked, see masking.ts); protocol failures (the frozen
 * requestState error, the -32021 capability gate, sealing-side faults) stay JSON-RPC errors.
 */
import type { CallToolRequest, CallToolResult, InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { isInputRequiredResult, ProtocolError } from '@modelcontextprotocol/server';

import type { RoundServices } from './roundScope.js';
import { isPromiseLike } from '../promise.js';
import { openRound } from './roundScope.js';
import type { CompiledTool } from './tool.js';

const MIXED_FLOW =
  'the multi-round flow is driven either by resolvers or by the tool body: a tool with resolved parameters cannot return input_required itself';

function toolError(message: string): CallToolResult {
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

/** Serves one `tools/call` round for `tool`. */
export async function callTool(
  tool: CompiledTool,
  request: CallToolRequest,
  sdkCtx: ServerContext,
  services: RoundServices,
): Promise<CallToolResult | InputRequiredResult> {
  const rawArgs = request.params.arguments ?? {};
  const round = await openRound(sdkCtx, { method: 'tools/call', target: tool.name, arguments: rawArgs }, services);

  let args: Record<string, unknown> = {};
  if (tool.input !== undefined) {
    const validation = tool.input['~standard'].validate(rawArgs);
    const parsed = isPromiseLike(validation) ? await validation : validation;
    if (parsed.issues) {
      const detail = parsed.issues.map((issue) => issue.message).join('; ');
      return toolError(`Input validation error: Invalid arguments for tool ${tool.name}: ${detail}`);
    }
    args = parsed.value as Record<string, unknown>;
  }

  try {
    const resolved = await round.resolve(tool.plan, args);
    if (isInputRequiredResult(resolved)) return resolved;
    const returned = tool.body({ ...args, ...resolved }, round.ctx);
    const value = isPromiseLike(returned) ? await returned : returned;
    if (isInputRequiredResult(value)) {
      if (tool.plan.params.length > 0) return toolError(MIXED_FLOW);
      return value.requestState === undefined
        ? value
        : { ...value, requestState: await round.seal(value.requestState) };
    }
    const result = toResult(tool, value);
    if (tool.output !== undefined && !result.isError) {
      const validation = tool.output['~standard'].validate(result.structuredContent);
      const checked = isPromiseLike(validation) ? await validation : validation;
      if (checked.issues) {
        const detail = checked.issues.map((issue) => issue.message).join('; ');
        return toolError(`Output validation error: Invalid structured content for tool ${tool.name}: ${detail}`);
      }
    }
    return services.server.projectCallToolResult(result, tool.outputJson);
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    return toolError(services.maskError(error, { method: 'tools/call', name: tool.name }));
  }
}
