/**
 * A tool body made of named steps. Each incomplete step may return `input_required` or
 * data; data is recorded in the sealed state and the step never runs again in this call. The end
 * step receives every result and runs exactly once, in the round where every step is done, so
 * side effects placed there cannot repeat.
 */
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { ToolContext } from '../context.js';
import { McpResolveError, ToolError } from '../errors.js';
import type { Simplify } from '../resolvers/resolver.js';
import type { HandlerResult, WrappedBody } from './body.js';
import { withRequestState } from './body.js';
import { asRecorded, parseState } from './json.js';

/** An incomplete step: reads the arguments, its context and the earlier results; returns data or `input_required`. */
export type StepFn<TArgs, TResults, TOut> = (args: TArgs, ctx: ToolContext, results: TResults) => TOut | Promise<TOut>;

/** The end step: receives the arguments and every step's result, and produces the tool's result (text or a tool result). */
export type EndFn<TArgs, TResults, TResult> = (
  args: TArgs,
  ctx: ToolContext,
  results: TResults,
) => TResult | Promise<TResult>;

/** A name usable for a new step: any string not used yet (a readable compile error otherwise). */
export type NewStepName<TName extends string, TResults> = TName extends keyof TResults
  ? `Step '${TName}' is already declared: step names must be unique`
  : TName;

/** A step builder before its end step, for a tool whose validated arguments are `TArgs`. */
export interface StepBuilder<TArgs, TResults> {
  /** Adds an incomplete step named `name`; its data (not `input_required`) becomes `results[name]` for later steps. */
  ask<TName extends string, TOut>(
    name: NewStepName<TName, TResults>,
    fn: StepFn<TArgs, TResults, TOut>,
  ): StepBuilder<TArgs, Simplify<TResults & { readonly [K in TName]: Exclude<TOut, InputRequiredResult> }>>;
  /** Adds the end step, which runs exactly once with every result; the definition returns what this returns. */
  end(fn: EndFn<TArgs, TResults, HandlerResult>): FinishedSteps<TArgs>;
}

declare const finished: unique symbol;

/** A step builder with its end step: what a `steps()` definition returns (nothing is left to add). */
export interface FinishedSteps<TArgs> {
  /** Type-only mark: only `.end()` makes a finished definition. */
  readonly [finished]: TArgs;
}

interface Step {
  readonly name: string;
  readonly fn: StepFn<unknown, Record<string, unknown>, unknown>;
}

type End = EndFn<unknown, Record<string, unknown>, unknown>;

/** Recorded results by step name (`[]` for `undefined`), and the state of the step that asked last round. */
const StepsState = z.object({
  v: z.literal(1),
  d: z.record(z.string(), z.array(z.unknown()).max(1)),
  p: z.object({ n: z.string(), s: z.string().optional() }).optional(),
});
type StepsState = z.infer<typeof StepsState>;

function decodeStepsState(plaintext: unknown): StepsState {
  if (plaintext === undefined) return { v: 1, d: {} };
  const state = parseState(plaintext, StepsState);
  if (state === undefined) {
    throw new ToolError('steps(): this call carries state from an incompatible version; start the call over.');
  }
  return state;
}

function invalid(api: 'steps()' | 'steps().ask()' | 'steps().end()', message: string): McpResolveError {
  return new McpResolveError('invalid_usage', message, { data: { api } });
}

function bodyOf(steps: readonly Step[], end: End): (args: unknown, ctx: ToolContext) => Promise<unknown> {
  return async (args, ctx) => {
    const state = decodeStepsState(ctx.mcpReq.requestState());
    const recorded: Record<string, unknown[]> = { ...state.d };
    const results: Record<string, unknown> = {};
    for (const step of steps) {
      const done = recorded[step.name];
      if (done !== undefined) {
        results[step.name] = done[0];
        continue;
      }
      const own = state.p?.n === step.name ? state.p.s : undefined;
      const out = await step.fn(args, withRequestState(ctx, own), { ...results });
      if (isInputRequiredResult(out)) {
        const next: StepsState = {
          v: 1,
          d: recorded,
          p: { n: step.name, ...(out.requestState !== undefined && { s: out.requestState }) },
        };
        return { ...out, requestState: JSON.stringify(next) };
      }
      const value = asRecorded(out, `steps(): step '${step.name}'`, 'steps()');
      recorded[step.name] = value === undefined ? [] : [value];
      results[step.name] = value;
    }
    const value = await end(args, withRequestState(ctx, undefined), { ...results });
    if (isInputRequiredResult(value)) {
      throw invalid(
        'steps()',
        'steps(): the end step returned input_required; ask in a step before .end() so the end step runs exactly once.',
      );
    }
    return value;
  };
}

class Builder {
  constructor(
    private readonly steps: readonly Step[],
    private readonly endFn: End | undefined,
  ) {}

  ask(name: string, fn: Step['fn']): Builder {
    if (this.endFn !== undefined) {
      throw invalid(
        'steps().ask()',
        `steps().ask('${name}'): the end step is already declared; declare every step before .end().`,
      );
    }
    if (typeof name !== 'string' || name.length === 0) {
      throw invalid(
        'steps().ask()',
        `steps().ask(): a step name must be a non-empty string (got ${JSON.stringify(name)}).`,
      );
    }
    if (this.steps.some((step) => step.name === name)) {
      throw invalid(
        'steps().ask()',
        `steps().ask('${name}'): a step named '${name}' is already declared; step names must be unique.`,
      );
    }
    if (typeof fn !== 'function')
      throw invalid('steps().ask()', `steps().ask('${name}'): the step must be a function (got ${typeof fn}).`);
    return new Builder([...this.steps, { name, fn }], undefined);
  }

  end(fn: End): Builder {
    if (this.endFn !== undefined)
      throw invalid('steps().end()', 'steps().end(): the end step is already declared; a step body has exactly one.');
    if (typeof fn !== 'function')
      throw invalid('steps().end()', `steps().end(): the end step must be a function (got ${typeof fn}).`);
    return new Builder(this.steps, fn);
  }

  build(): (args: unknown, ctx: ToolContext) => Promise<unknown> {
    if (this.endFn === undefined) {
      throw invalid(
        'steps()',
        'steps(): there is no end step. End the definition with .end((args, ctx, results) => …).',
      );
    }
    return bodyOf(this.steps, this.endFn);
  }
}

/**
 * Builds a tool body from named steps: `define` receives an empty builder and returns it after
 * `.ask(…)` steps and one `.end(…)`. In `.tool(name, { input }, steps((s) => …))` the
 * step functions' `args` are typed from `input`.
 */
export function steps<TArgs>(
  define: (builder: StepBuilder<TArgs, Record<never, never>>) => FinishedSteps<TArgs>,
): WrappedBody<TArgs> {
  if (typeof define !== 'function')
    throw invalid('steps()', `steps(): the definition must be a function (got ${typeof define}).`);
  // The cast seams of this builder: the runtime builder is untyped, the interfaces above are precise.
  const defined: unknown = define(new Builder([], undefined) as unknown as StepBuilder<TArgs, Record<never, never>>);
  if (!(defined instanceof Builder)) {
    throw invalid(
      'steps()',
      'steps(): the definition must return its builder after .end(…), e.g. (s) => s.ask(…).end(…).',
    );
  }
  return defined.build() as WrappedBody<TArgs>;
}
