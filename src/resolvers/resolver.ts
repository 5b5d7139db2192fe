/**
 * Declaring resolvers: functions that fill a tool parameter instead of the model. A resolver
 * names the tool arguments it reads (with their schemas, so it is typed on its own), the
 * resolvers it depends on, and receives the tool's context.
 */
import type { StandardSchemaV1 } from '@modelcontextprotocol/server';

import type { ToolContext } from '../context.js';
import { McpResolveError } from '../errors.js';
import type { Answered, AskKindsOf, ElicitationResult } from '../questions/markers.js';

/** The tool arguments a resolver reads, by name, each with the schema of the value it expects. */
export type ArgShape = Record<string, StandardSchemaV1>;

/** The resolvers a resolver depends on, by the name its function receives them under. */
export type DepShape = Record<string, Dependency>;

/** A dependency as declared: a resolver (unwrapped value) or `outcome(resolver)` (the full outcome). */
export type Dependency = AnyResolver | OutcomeOf<AnyResolver>;

/** A resolver whose value is `TValue` and which needs the tool arguments `TNeeds` (transitively). */
export interface Resolver<TValue, TNeeds = unknown> {
  /**
   * What this object is: a plain string field, so a resolver made by another copy of the package is
   * recognised too; tilde-prefixed, as the question markers' own `'~kind'`.
   */
  readonly '~kind': 'resolver';
  /** The name used in error messages and question keys; optional (derived at registration). */
  readonly name: string | undefined;
  /** The tool arguments this resolver reads directly. */
  readonly args: ArgShape;
  /** The resolvers this resolver depends on (read at registration, so getters can forward-reference). */
  readonly deps: DepShape;
  /** The resolver's function, as written. */
  readonly fn: (input: never, ctx: ToolContext) => unknown;
  /** Type-only slot: what consumers receive and which tool arguments the graph reads. */
  readonly '~types'?: { readonly value: TValue; readonly needs: TNeeds };
}

/** Any resolver, whatever it returns. */
export type AnyResolver = Resolver<unknown>;

/** A dependency marked to receive the full outcome (accepted, declined or cancelled). */
export interface OutcomeOf<TResolver extends AnyResolver> {
  /** What this object is (see {@link Resolver}'s `'~kind'`). */
  readonly '~kind': 'outcome';
  readonly resolver: TResolver;
}

/** The value of a resolver's dependency as the consumer receives it. */
export type DependencyValue<TDep> =
  TDep extends OutcomeOf<infer R> ? ElicitationResult<ValueOf<R>> : TDep extends AnyResolver ? ValueOf<TDep> : never;

/** The value a resolver produces (its answered question, or what it computed). */
export type ValueOf<TResolver> = TResolver extends Resolver<infer V, unknown> ? V : never;

/** The tool arguments a dependency needs, transitively, as a name → type map. */
export type NeedsOf<TDep> =
  TDep extends OutcomeOf<infer R> ? NeedsOf<R> : TDep extends Resolver<unknown, infer N> ? N : never;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Flattens an intersection into one object type for readable hovers. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The argument values a resolver receives for an {@link ArgShape}. */
export type ArgValues<TArgs extends ArgShape> = { [K in keyof TArgs]: StandardSchemaV1.InferOutput<TArgs[K]> };

/** The dependency values a resolver receives for a {@link DepShape}. */
export type DepValues<TDeps extends DepShape> = { [K in keyof TDeps]: DependencyValue<TDeps[K]> };

type DepsNeeds<TDeps extends DepShape> = UnionToIntersection<{ [K in keyof TDeps]: NeedsOf<TDeps[K]> }[keyof TDeps]>;

type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;

/** A compile-time error, readable in the editor. */
export interface DeclarationError<TMessage extends string> {
  readonly '~error': TMessage;
}

/** What `resolver(...)` returns for a function returning `TReturn`. */
export type ResolverFor<TReturn, TNeeds> =
  true extends IsUnion<AskKindsOf<Awaited<TReturn>>>
    ? DeclarationError<'A resolver asks one kind of question: this one returns two of elicit(...), sample(...), listRoots()'>
    : Resolver<Answered<Awaited<TReturn>>, TNeeds>;

/** How a resolver is declared: its name (optional), the tool arguments it reads, its dependencies. */
export interface ResolverDeclaration<TArgs extends ArgShape, TDeps extends DepShape> {
  /** A name for error messages and question keys; defaults to the parameter name it is first found under. */
  readonly name?: string;
  /**
   * Tool arguments read by name. Registration checks the tool's input has each, and that its JSON
   * Schema `type` fits this schema's (where either names no type, it cannot tell and lets it pass).
   */
  readonly args?: TArgs;
  /** Resolvers this one depends on; wrap one in `outcome(...)` to branch on a decline instead of aborting. */
  readonly deps?: TDeps;
}

/**
 * Declares a resolver. `fn` receives the declared arguments and dependencies by name, and the
 * tool's context; it returns a value, or `elicit(...)`, `sample(...)` or `listRoots()` to ask.
 */
export function resolver<
  TArgs extends ArgShape = Record<never, never>,
  TDeps extends DepShape = Record<never, never>,
  TReturn = unknown,
>(
  declaration: ResolverDeclaration<TArgs, TDeps>,
  fn: (input: Simplify<ArgValues<TArgs> & DepValues<TDeps>>, ctx: ToolContext) => TReturn,
): ResolverFor<TReturn, Simplify<ArgValues<TArgs> & DepsNeeds<TDeps>>> {
  if (typeof fn !== 'function') {
    throw new McpResolveError(
      'invalid_declaration',
      `resolver(): the second argument must be a function (got ${typeof fn}).`,
      { data: { kind: 'resolver', ...(declaration.name !== undefined && { name: declaration.name }) } },
    );
  }
  const built: AnyResolver = {
    '~kind': 'resolver',
    name: declaration.name,
    args: declaration.args ?? {},
    // Read when the graph is analysed, so a getter in the declaration can forward-reference.
    get deps() {
      return declaration.deps ?? {};
    },
    fn,
  };
  // The one cast seam of this builder: the runtime object is the same for every type argument.
  return built as ResolverFor<TReturn, Simplify<ArgValues<TArgs> & DepsNeeds<TDeps>>>;
}

/** Marks a dependency so the consumer receives the full outcome and branches on a decline. */
export function outcome<TResolver extends AnyResolver>(target: TResolver): OutcomeOf<TResolver> {
  if (!isResolver(target)) {
    throw new McpResolveError(
      'invalid_declaration',
      'outcome(): the argument must be a resolver created with resolver(...).',
      { data: { kind: 'resolver' } },
    );
  }
  return { '~kind': 'outcome', resolver: target };
}

/** Whether `value` is a resolver created with {@link resolver}. */
export function isResolver(value: unknown): value is AnyResolver {
  return typeof value === 'object' && value !== null && '~kind' in value && value['~kind'] === 'resolver';
}

/** Whether `value` is a dependency wrapped with {@link outcome}. */
export function isOutcomeDependency(value: unknown): value is OutcomeOf<AnyResolver> {
  return typeof value === 'object' && value !== null && '~kind' in value && value['~kind'] === 'outcome';
}
