/**
 * Declaring a tool: its model-facing input, the parameters resolvers fill (hidden from the input
 * schema), its output, and its body, whose parameter types are inferred from all of these.
 */
import type {
  CallToolResult,
  InputRequiredResult,
  StandardSchemaV1,
  StandardSchemaWithJSON,
  Tool,
  ToolAnnotations,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';

import type { ToolContext } from '../context.js';
import { McpResolveError } from '../errors.js';
import type { ResolutionPlan } from '../resolvers/graph.js';
import { compilePlan } from '../resolvers/graph.js';
import { assertRegistration } from './registration.js';
import type { ResolvedBy } from './roundState.js';
import { compileArguments, isStandardSchema, jsonSchemaOf } from './schemas.js';
import type { TaskDeclaration, TaskSupport } from './taskDeclaration.js';
import { taskSupportOf } from './taskDeclaration.js';
import type { DeclarationError, Dependency, DependencyValue, NeedsOf, Simplify } from '../resolvers/resolver.js';

/** A tool's model-facing input: a zod raw shape, or any Standard Schema (with JSON Schema) of an object. */
export type ToolInput = z.ZodRawShape | StandardSchemaWithJSON;

/** The validated argument values of a {@link ToolInput}. */
export type InputValues<TInput> = TInput extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<TInput>
  : TInput extends z.ZodRawShape
    ? z.output<z.ZodObject<TInput>>
    : never;

/** A tool's resolved parameters: parameter name → resolver, or `outcome(resolver)`. */
export type ResolveShape = Record<string, Dependency>;

/** The values a tool body receives for its resolved parameters. */
export type ResolvedValues<TResolve> = { [P in keyof TResolve]: DependencyValue<TResolve[P]> };

/** The keys a type really lists (an index signature, as an empty input infers, lists none). */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

type MismatchedArgs<TIn, TNeeds> = {
  [K in keyof TNeeds]-?: K extends KnownKeys<TIn> ? (TIn[K & keyof TIn] extends TNeeds[K] ? never : K) : K;
}[keyof TNeeds];

/** Compile-time check that every resolver's arguments (transitively) exist in the tool's input with a compatible type. */
export type CheckedResolve<TIn, TResolve> = {
  [P in keyof TResolve]: [MismatchedArgs<TIn, NeedsOf<TResolve[P]>>] extends [never]
    ? TResolve[P]
    : DeclarationError<`Parameter '${P & string}' is resolved by a resolver that reads '${MismatchedArgs<TIn, NeedsOf<TResolve[P]>> & string}', which the tool's input does not have with that type`>;
};

/** How a tool is declared. */
export interface ToolDeclaration<TInput extends ToolInput, TResolve extends ResolveShape, TOutput> {
  readonly title?: string;
  readonly description?: string;
  readonly annotations?: ToolAnnotations;
  readonly _meta?: Record<string, unknown>;
  /** What the model sees and supplies. */
  readonly input?: TInput;
  /** What the model never sees: parameters filled by resolvers. */
  readonly resolve?: TResolve;
  /** The structured result's schema; the body then returns the structured value. */
  readonly output?: TOutput;
  /**
   * Runs the tool as a task (the Tasks extension) when the request declares the extension:
   * `'optional'`, `'required'`, or `{ support, questions }` (see {@link TaskSupport}).
   */
  readonly task?: TaskDeclaration;
}

type BodyResult<TResolve, TOutput> = TOutput extends StandardSchemaV1
  ? StandardSchemaV1.InferInput<TOutput>
  : string | CallToolResult | ([keyof TResolve] extends [never] ? InputRequiredResult : never);

/** A tool's body: receives model arguments and resolved values by name, and the context. */
export type ToolBody<TInput extends ToolInput, TResolve extends ResolveShape, TOutput> = (
  params: Simplify<InputValues<TInput> & ResolvedValues<TResolve>>,
  ctx: ToolContext,
) => BodyResult<TResolve, TOutput> | Promise<BodyResult<TResolve, TOutput>>;

/** A tool ready to serve: its `tools/list` entry, its schemas and its resolution plan, built once. */
export interface CompiledTool {
  readonly name: string;
  readonly definition: Tool;
  readonly input: StandardSchemaV1 | undefined;
  readonly output: StandardSchemaV1 | undefined;
  readonly outputJson: Record<string, unknown> | undefined;
  readonly plan: ResolutionPlan;
  /** The tool's resolvers and what it is, for the one-flow rule. */
  readonly resolvedBy: ResolvedBy;
  /** How the tool takes part in the Tasks extension; `undefined` when it never runs as a task. */
  readonly task: TaskSupport | undefined;
  readonly body: (params: Record<string, unknown>, ctx: ToolContext) => unknown;
}

/** Validates a declaration and builds everything a call needs, once, at registration. */
export function compileTool(
  name: string,
  declaration: ToolDeclaration<ToolInput, ResolveShape, unknown>,
  body: unknown,
): CompiledTool {
  assertRegistration('tool', name, body, 'body');
  const inputArgs =
    declaration.input === undefined
      ? undefined
      : compileArguments({ kind: 'tool', name, field: 'input' }, declaration.input);
  const input = inputArgs?.schema;
  const output = declaration.output;
  if (output !== undefined && !isStandardSchema(output)) {
    throw new McpResolveError(
      'invalid_declaration',
      `Tool '${name}' output: expected a schema (for example z.object({...})).`,
      { data: { kind: 'tool', name, field: 'output' } },
    );
  }
  const outputJson =
    output === undefined ? undefined : jsonSchemaOf(output, 'output', { kind: 'tool', name, field: 'output' });
  const plan = compilePlan(
    { kind: 'tool', name },
    declaration.resolve ?? {},
    inputArgs?.names ?? new Set(),
    inputArgs?.properties,
  );
  const definition: Tool = {
    name,
    ...(declaration.title !== undefined && { title: declaration.title }),
    ...(declaration.description !== undefined && { description: declaration.description }),
    inputSchema: (inputArgs?.json ?? { type: 'object', properties: {} }) as Tool['inputSchema'],
    ...(outputJson !== undefined && { outputSchema: outputJson }),
    ...(declaration.annotations !== undefined && { annotations: declaration.annotations }),
    ...(declaration._meta !== undefined && { _meta: declaration._meta }),
  };
  return {
    name,
    definition,
    input,
    output,
    outputJson,
    plan,
    resolvedBy: { plan, handler: 'tool' },
    task: taskSupportOf(declaration.task),
    body: body as CompiledTool['body'],
  };
}
