/**
 * Registration-time analysis: turns a tool's `resolve` declarations into a resolution plan, or
 * throws naming the offending resolver and parameter. Question keys are derived here, from
 * registration data only, so they are identical in every process and every round.
 */
import type { McpResolveErrorData } from '../errors.js';
import { McpResolveError } from '../errors.js';
import { refusedTypes } from './argTypes.js';
import type { AnyResolver, Dependency } from './resolver.js';
import { isOutcomeDependency, isResolver } from './resolver.js';

/** How a consumer receives a dependency: the accepted value (abort on decline) or the full outcome. */
export type DeliveryMode = 'unwrapped' | 'outcome';

/** One resolver in a plan, with its stable question key. */
export interface PlanNode {
  readonly resolver: AnyResolver;
  /** The name used in messages: the declared name, else the function's name, else the first parameter name it was found under. */
  readonly label: string;
  /** The `inputRequests` key of its question: unique within the tool, stable across processes. */
  readonly key: string;
  readonly args: readonly string[];
  readonly deps: readonly PlanEdge[];
}

/** A consumer's edge to a resolver: the name the consumer receives it under, and how. */
export interface PlanEdge {
  readonly name: string;
  readonly node: PlanNode;
  readonly mode: DeliveryMode;
}

/**
 * One step of a pass: run a resolver (once its dependencies are resolved), or hand a resolved
 * resolver over an edge, to a consumer (`deliver`) or to the tool (`param`); handing over a
 * declined outcome unwrapped aborts the call.
 */
export type PlanStep =
  { readonly kind: 'run'; readonly node: PlanNode } | { readonly kind: 'deliver' | 'param'; readonly edge: PlanEdge };

/** A tool's resolved parameters in declaration order, and every resolver reachable from them. */
export interface ResolutionPlan {
  readonly params: readonly PlanEdge[];
  /**
   * A pass, flattened: the parameters in declaration order, each resolver's dependencies in
   * declaration order, depth first. Each edge is delivered right after its resolver is visited (so
   * a decline aborts before later branches run) and each resolver runs after its last dependency.
   */
  readonly schedule: readonly PlanStep[];
  /** Resolvers whose decline (or cancel) ends the call: some consumer takes them unwrapped. */
  readonly declineEndsCall: ReadonlySet<PlanNode>;
}

interface MutableNode {
  resolver: AnyResolver;
  label: string;
  key: string;
  args: string[];
  deps: PlanEdge[];
}

function resolverLabel(target: AnyResolver, foundUnder: string): string {
  if (target.name) return target.name;
  const fnName = target.fn.name;
  return fnName && fnName !== 'fn' ? fnName : foundUnder;
}

/** Whose `resolve` a plan is built for: a tool's or a prompt's (named in errors' data). */
export interface PlanOwner {
  readonly kind: 'tool' | 'prompt';
  readonly name: string;
}

/**
 * Builds the plan for `owner` (a tool, or a prompt; messages say tool). `inputNames` are the
 * model-facing argument names (when the input schema lists them); a resolver reading any other
 * argument is rejected.
 */
export function compilePlan(
  owner: PlanOwner,
  resolve: Readonly<Record<string, unknown>>,
  inputNames: ReadonlySet<string> | undefined,
  inputProperties?: Readonly<Record<string, unknown>>,
): ResolutionPlan {
  const nodes = new Map<AnyResolver, MutableNode>();
  const visiting = new Map<AnyResolver, string>();
  const usedKeys = new Set<string>();
  const schedule: PlanStep[] = [];

  const visit = (target: AnyResolver, foundUnder: string): MutableNode => {
    const known = nodes.get(target);
    if (known) return known;
    const label = resolverLabel(target, foundUnder);
    if (visiting.has(target)) {
      const path = [...visiting.entries()];
      const names = path.slice(path.findIndex(([node]) => node === target)).map(([, name]) => name);
      const cycle = [...names, label];
      throw new McpResolveError(
        'invalid_graph',
        `Resolver '${label}' has a cyclic dependency: ${cycle.join(' -> ')}. Break the cycle: a resolver cannot depend on itself through its deps.`,
        { data: { ...owner, resolver: label, cycle } },
      );
    }
    visiting.set(target, label);
    const args = Object.keys(target.args);
    for (const arg of args) {
      if (inputNames && !inputNames.has(arg)) {
        throw new McpResolveError(
          'invalid_graph',
          `Resolver '${label}' parameter '${arg}' cannot be resolved: tool '${owner.name}' has no argument '${arg}'. ` +
            `Add '${arg}' to the tool's input, or remove it from the resolver's args.`,
          { data: { ...owner, resolver: label, argument: arg } },
        );
      }
      const argSchema = target.args[arg];
      const property = inputProperties?.[arg];
      const refused = argSchema === undefined || property === undefined ? [] : refusedTypes(property, argSchema);
      if (refused.length > 0) {
        throw new McpResolveError(
          'invalid_graph',
          `Resolver '${label}' argument '${arg}' does not accept the tool's input: tool '${owner.name}' gives ` +
            `${refused.join(' | ')}, which the resolver's args schema refuses. Give both the same type.`,
          { data: { ...owner, resolver: label, argument: arg } },
        );
      }
    }
    const deps: PlanEdge[] = [];
    for (const depName of Object.keys(target.deps)) {
      if (args.includes(depName)) {
        throw new McpResolveError(
          'invalid_graph',
          `Resolver '${label}' uses the name '${depName}' for both an argument and a dependency: rename one of them.`,
          { data: { ...owner, resolver: label, argument: depName } },
        );
      }
      const edge = edgeTo(target.deps[depName], depName, `Resolver '${label}' dependency '${depName}'`, {
        kind: 'resolver',
        name: label,
        field: `deps.${depName}`,
      });
      const dep: PlanEdge = { name: depName, node: visit(edge.resolver, depName), mode: edge.mode };
      deps.push(dep);
      schedule.push({ kind: 'deliver', edge: dep });
    }
    visiting.delete(target);
    let key = label;
    for (let n = 2; usedKeys.has(key); n++) key = `${label}~${n}`;
    usedKeys.add(key);
    const node: MutableNode = { resolver: target, label, key, args, deps };
    nodes.set(target, node);
    schedule.push({ kind: 'run', node });
    return node;
  };

  const params: PlanEdge[] = [];
  for (const param of Object.keys(resolve)) {
    if (inputNames?.has(param)) {
      throw new McpResolveError(
        'invalid_declaration',
        `Tool '${owner.name}' resolves parameter '${param}', which is also a model-facing argument in its input: rename one of them.`,
        { data: { ...owner, field: `resolve.${param}` } },
      );
    }
    const edge = edgeTo(resolve[param], param, `Tool '${owner.name}' parameter '${param}'`, {
      ...owner,
      field: `resolve.${param}`,
    });
    const delivered: PlanEdge = { name: param, node: visit(edge.resolver, param), mode: edge.mode };
    params.push(delivered);
    schedule.push({ kind: 'param', edge: delivered });
  }
  const declineEndsCall = new Set<PlanNode>();
  for (const step of schedule)
    if (step.kind !== 'run' && step.edge.mode === 'unwrapped') declineEndsCall.add(step.edge.node);
  return { params, schedule, declineEndsCall };
}

function edgeTo(
  value: unknown,
  name: string,
  where: string,
  at: McpResolveErrorData['invalid_declaration'],
): { resolver: AnyResolver; mode: DeliveryMode } {
  const dependency = value as Dependency | undefined;
  if (isOutcomeDependency(dependency)) return { resolver: dependency.resolver, mode: 'outcome' };
  if (isResolver(dependency)) return { resolver: dependency, mode: 'unwrapped' };
  throw new McpResolveError(
    'invalid_declaration',
    `${where} is not a resolver (got ${value === null ? 'null' : typeof value} for '${name}'): ` +
      'declare it with resolver(...), or wrap one in outcome(...).',
    { data: at },
  );
}
