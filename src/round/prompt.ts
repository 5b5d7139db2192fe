/**
 * Declaring a prompt that can take parameters from resolvers, exactly like a tool: the model-facing
 * arguments, the resolved parameters, and a body whose parameter types are inferred.
 */
import type {
  GetPromptResult,
  InputRequiredResult,
  McpServer,
  ServerContext,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { z } from 'zod';

import type { ToolContext } from '../context.js';
import { ToolError } from '../errors.js';
import { isHandOff } from '../questions/strategy.js';
import type { ResolutionPlan } from '../resolvers/graph.js';
import { compilePlan } from '../resolvers/graph.js';
import type { Simplify } from '../resolvers/resolver.js';
import { throwMasked } from './masking.js';
import { assertRegistration } from './registration.js';
import type { ResolvedBy, RoundState } from './roundState.js';
import { endTrace, failTrace, openRoundState, startTrace } from './roundState.js';
import type { InstanceServices } from './services.js';
import { compileArguments } from './schemas.js';
import type { InputValues, ResolvedValues, ResolveShape } from './tool.js';

/**
 * A prompt's arguments, as a tool's `input` but of strings (prompt arguments are strings on the
 * wire): a zod raw shape of string schemas, or any Standard Schema (with JSON Schema) of an object
 * of strings, such as `z.object({...})`.
 */
export type PromptArgs =
  | Record<string, z.ZodType<unknown, string | undefined>>
  | StandardSchemaWithJSON<Record<string, string | undefined>, Record<string, unknown>>;

/** How a prompt is declared. */
export interface PromptDeclaration<TArgs extends PromptArgs, TResolve extends ResolveShape> {
  readonly title?: string;
  readonly description?: string;
  /** What the client supplies. */
  readonly args?: TArgs;
  /** What resolvers fill, never listed as prompt arguments. */
  readonly resolve?: TResolve;
}

type PromptBodyResult<TResolve> = GetPromptResult | ([keyof TResolve] extends [never] ? InputRequiredResult : never);

/** A prompt's body: receives arguments and resolved values by name, and the context. */
export type PromptBody<TArgs extends PromptArgs, TResolve extends ResolveShape> = (
  params: Simplify<InputValues<TArgs> & ResolvedValues<TResolve>>,
  ctx: ToolContext,
) => PromptBodyResult<TResolve> | Promise<PromptBodyResult<TResolve>>;

/** A prompt ready to register on every instance. */
export interface CompiledPrompt {
  readonly name: string;
  readonly declaration: PromptDeclaration<PromptArgs, ResolveShape>;
  /** What the SDK lists (`prompts/list`) and validates arguments with: `z.object(args)` for a raw shape. */
  readonly argsSchema: StandardSchemaWithJSON<unknown, Record<string, unknown>>;
  readonly plan: ResolutionPlan;
  /** The prompt's resolvers and what it is, for the one-flow rule. */
  readonly resolvedBy: ResolvedBy;
  readonly body: (params: Record<string, unknown>, ctx: ToolContext) => unknown;
}

/** Validates a prompt declaration and builds its plan, once, at registration. */
export function compilePrompt(
  name: string,
  declaration: PromptDeclaration<PromptArgs, ResolveShape>,
  body: unknown,
): CompiledPrompt {
  assertRegistration('prompt', name, body, 'body');
  const args = compileArguments<Extract<PromptArgs, StandardSchemaWithJSON>>(
    { kind: 'prompt', name, field: 'args' },
    declaration.args ?? {},
  );
  const plan = compilePlan({ kind: 'prompt', name }, declaration.resolve ?? {}, args.names, args.properties);
  return {
    name,
    declaration,
    argsSchema: args.schema,
    plan,
    resolvedBy: { plan, handler: 'prompt' },
    body: body as CompiledPrompt['body'],
  };
}

/** Registers `prompt` on one SDK instance, wrapped so its state is verified and its resolvers run. */
export function registerPrompt(mcp: McpServer, prompt: CompiledPrompt, services: InstanceServices): void {
  const { title, description } = prompt.declaration;
  mcp.registerPrompt(
    prompt.name,
    {
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
      argsSchema: prompt.argsSchema,
    },
    (args, sdkCtx) => servePromptGet(prompt, args, sdkCtx, services),
  );
}

/**
 * Serves one `prompts/get` round of `prompt` (its arguments already validated by the SDK): open
 * the sealed state, resolve, run the body, settle its `input_required`; a failure is a masked
 * JSON-RPC error.
 */
async function servePromptGet(
  prompt: CompiledPrompt,
  args: Record<string, unknown>,
  sdkCtx: ServerContext,
  services: InstanceServices,
): Promise<GetPromptResult | InputRequiredResult> {
  const trace = startTrace(services, sdkCtx, 'prompts/get', prompt.name, {
    arguments: args,
    _meta: sdkCtx.mcpReq._meta,
  });
  try {
    const state = await openRoundState(
      sdkCtx,
      { method: 'prompts/get', target: prompt.name, arguments: args },
      services,
      trace,
    );
    return endTrace(trace, await answerPromptGet(prompt, args, state));
  } catch (error) {
    throw failTrace(trace, error);
  }
}

/** The round's steps once its state is open: resolve, run the body, settle; a failure is rethrown masked. */
async function answerPromptGet(
  prompt: CompiledPrompt,
  args: Record<string, unknown>,
  state: RoundState,
): Promise<GetPromptResult | InputRequiredResult> {
  try {
    const resolved = await state.resolve(prompt.plan, args);
    if (isInputRequiredResult(resolved)) return resolved;
    // A prompt has no tool result to hand a question off with: the hand-off's words fail it.
    if (isHandOff(resolved))
      throw new ToolError(resolved.result.content.map((block) => ('text' in block ? block.text : '')).join(''));
    const value = await prompt.body({ ...args, ...resolved }, state.ctx);
    if (isInputRequiredResult(value)) return await state.sealAsked(value, prompt.resolvedBy);
    return value as GetPromptResult;
  } catch (error) {
    return throwMasked(error, state.services.maskError, { method: 'prompts/get', name: prompt.name }, state.trace);
  }
}
