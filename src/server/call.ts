/**
 * Serving one `tools/call` for a compiled tool: open the sealed state (before anything runs),
 * validate arguments, run a round of resolvers on the request's era, then run the body, and
 * project the result. Tool failures become `isError` results; protocol failures (the frozen
 * requestState error, the -32021 capability gate, sealing-side faults) stay JSON-RPC errors.
 */
import type {
  CallToolRequest,
  CallToolResult,
  InputRequiredResult,
  Server,
  ServerContext,
} from '@modelcontextprotocol/server';
import { inputRequired, isInputRequiredResult, ProtocolError } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { LegacyAsker, ModernAsker } from '../resolvers/asking.js';
import { runRound } from '../resolvers/engine.js';
import { decodeProgress, encodeProgress } from '../resolvers/progress.js';
import type { RequestBinding, RequestStateSealer } from '../state/index.js';
import type { CompiledTool } from './tool.js';
import { clientCapabilitiesOf, eraOf } from './era.js';

/** What a call needs from the server that owns the tool. */
export interface CallServices {
  readonly server: Server;
  readonly sealer: RequestStateSealer;
  readonly principal: (ctx: ServerContext) => string | undefined;
  readonly legacyQuestionTimeoutMs: number;
}

const MIXED_FLOW =
  'the multi-round flow is driven either by resolvers or by the tool body: a tool with resolved parameters cannot return input_required itself';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Normalises what a body returned into a `tools/call` result. */
function toResult(tool: CompiledTool, value: unknown): CallToolResult {
  if (tool.output !== undefined) {
    return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
  }
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  return value as CallToolResult;
}

/** Serves one `tools/call` round for `tool`. */
export async function callTool(
  tool: CompiledTool,
  request: CallToolRequest,
  sdkCtx: ServerContext,
  services: CallServices,
): Promise<CallToolResult | InputRequiredResult> {
  const era = eraOf(sdkCtx);
  const binding: RequestBinding = {
    method: 'tools/call',
    target: tool.name,
    arguments: request.params.arguments ?? {},
    principal: services.principal(sdkCtx),
  };
  const token = sdkCtx.mcpReq.requestState();
  const plaintext = typeof token === 'string' ? decoder.decode(await services.sealer.open(token, binding)) : undefined;
  const ctx: ToolContext = { ...sdkCtx, era, mcpReq: { ...sdkCtx.mcpReq, requestState: <T>() => plaintext as T } };
  const seal = async (state: string) => services.sealer.seal(encoder.encode(state), binding);

  let args: Record<string, unknown> = {};
  if (tool.input !== undefined) {
    const parsed = await tool.input['~standard'].validate(request.params.arguments ?? {});
    if (parsed.issues) {
      const detail = parsed.issues.map((issue) => issue.message).join('; ');
      return toolError(`Input validation error: Invalid arguments for tool ${tool.name}: ${detail}`);
    }
    args = parsed.value as Record<string, unknown>;
  }

  try {
    let resolved: Record<string, unknown> = {};
    if (tool.plan.params.length > 0) {
      const capabilities = clientCapabilitiesOf(sdkCtx, services.server, era);
      if (era === 'modern') {
        const asker = new ModernAsker(decodeProgress(plaintext), sdkCtx.mcpReq.inputResponses, capabilities);
        const round = await runRound(tool.plan, args, ctx, asker);
        if (round.kind === 'pending') {
          return inputRequired({
            inputRequests: asker.inputRequests,
            requestState: await seal(encodeProgress(asker.nextProgress())),
          });
        }
        resolved = round.values;
      } else {
        const round = await runRound(
          tool.plan,
          args,
          ctx,
          new LegacyAsker(ctx, capabilities, services.legacyQuestionTimeoutMs),
        );
        if (round.kind === 'pending') throw new Error('A legacy round cannot be left pending.');
        resolved = round.values;
      }
    }
    const value = await tool.body({ ...args, ...resolved }, ctx);
    if (isInputRequiredResult(value)) {
      if (tool.plan.params.length > 0) return toolError(MIXED_FLOW);
      return value.requestState === undefined ? value : { ...value, requestState: await seal(value.requestState) };
    }
    const result = toResult(tool, value);
    if (tool.output !== undefined && !result.isError) {
      const checked = await tool.output['~standard'].validate(result.structuredContent);
      if (checked.issues) {
        return toolError(
          `Output validation error: Invalid structured content for tool ${tool.name}: ${checked.issues.map((i) => i.message).join('; ')}`,
        );
      }
    }
    return services.server.projectCallToolResult(result, tool.outputJson);
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    return toolError(messageOf(error));
  }
}
