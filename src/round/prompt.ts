/**
 * Declaring a prompt that can take parameters from resolvers, exactly like a tool: the model-facing
 * arguments, the resolved parameters, and a body whose parameter types are inferred.
 */
import type {
  GetPromptResult,
  InputRequiredResult,
  McpServer,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';

import type { ToolContext } from '../context.js';
import type { ResolutionPlan } from '../resolvers/graph.js';
import { compilePlan } from '../resolvers/graph.js';
import type { Simplify } from '../resolvers/resolver.js';
import { throwMasked } from './masking.js';
import { assertRegistration } from './registration.js';
import type { RoundMethod } from './pipeline.js';
import { serveRound } from './pipeline.js';
import type { ResolvedBy, RoundServices } from './roundScope.js';
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
  /** The plan as the round pipeline takes it: the prompt's resolvers, for the one-flow rule. */
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
export function registerPrompt(mcp: McpServer, prompt: CompiledPrompt, services: RoundServices): void {
  const { title, description } = prompt.declaration;
  mcp.registerPrompt(
    prompt.name,
    {
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
      argsSchema: prompt.argsSchema,
    },
    (args, sdkCtx) =>
      serveRound(
        PROMPT_GET,
        prompt,
        { target: prompt.name, arguments: args, params: { arguments: args, _meta: sdkCtx.mcpReq._meta } },
        sdkCtx,
        services,
      ),
  );
}

/** How a `prompts/get` runs through the round pipeline (its arguments were validated by the SDK). */
const PROMPT_GET: RoundMethod<CompiledPrompt, GetPromptResult> = {
  method: 'prompts/get',
  validate: (_prompt, args) => ({ ok: true, args }),
  resolvedBy: (prompt) => prompt.resolvedBy,
  run: (prompt, args, resolved, round) => prompt.body({ ...args, ...resolved }, round.ctx),
  finish: (_prompt, value) => value as GetPromptResult,
  fail: (prompt, error, services, trace) =>
    throwMasked(error, services.maskError, { method: 'prompts/get', name: prompt.name }, trace),
};
