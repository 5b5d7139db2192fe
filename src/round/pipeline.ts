/**
 * The one round pipeline every multi-round request runs (`tools/call`, `prompts/get`,
 * `resources/read`, and the `tools/call` that creates a task): observe the request, open its sealed
 * state, validate its arguments, run a round of its resolvers, run the method's step, and settle
 * the outcome. The policies live here once: a step that returns `input_required` (sealed, or refused
 * when resolvers drive the flow: {@link RoundScope.sealAsked}), and a failure handed to the
 * method's masking. What differs per method is a {@link RoundMethod}, one constant per method.
 *
 * Each step hands its value to the next directly when it is synchronous and through `then` only
 * when it is a promise: a call that asks nothing and awaits nothing is answered synchronously and
 * allocates no closures (it runs on every call).
 */
import type { InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';

import { requestTrace } from '../context.js';
import type { MultiRoundMethod } from '../multiRound.js';
import { isPromiseLike } from '../promise.js';
import type { RequestTrace } from '../telemetry/hooks.js';
import { endTrace, startTrace } from './requestTrace.js';
import type { ResolvedBy, RoundScope, RoundServices } from './roundScope.js';
import { openRound } from './roundScope.js';

/** A value now, or later. */
export type MaybePromise<T> = T | Promise<T>;

/** The validated arguments, or the result that ends the round. */
export type Validated<TResult> =
  { readonly ok: true; readonly args: Record<string, unknown> } | { readonly ok: false; readonly result: TResult };

/** What one method does at each step of the pipeline, for its subject (a tool, a prompt, a resource read). */
export interface RoundMethod<TSubject, TResult> {
  /** The method served: bound into the sealed state, named in traces and in masked failures. */
  readonly method: MultiRoundMethod;
  /** Validates the raw arguments. */
  validate(subject: TSubject, raw: Record<string, unknown>): MaybePromise<Validated<TResult>>;
  /** The resolvers to run before the step, and what the step is (for the one-flow rule); `undefined`: none. */
  resolvedBy(subject: TSubject): ResolvedBy | undefined;
  /** The method's step: a body, or the creation of a task. Its `input_required` is settled by the pipeline. */
  run(
    subject: TSubject,
    args: Record<string, unknown>,
    resolved: Record<string, unknown>,
    round: RoundScope,
    services: RoundServices,
  ): unknown;
  /** A step's value (not `input_required`) as the method's result. */
  finish(subject: TSubject, value: unknown, services: RoundServices): MaybePromise<TResult>;
  /** A failure of the round as the method reports it: a result (a tool's `isError`), or a throw (a masked JSON-RPC error). */
  fail(subject: TSubject, error: unknown, services: RoundServices, trace: RequestTrace | undefined): TResult;
}

/** One request as the pipeline sees it: its target and arguments, and what its trace records of it. */
export interface RoundRequest {
  /** The name bound into sealed state and reported: a tool's or prompt's name, a resource's URI. */
  readonly target: string;
  /** The arguments bound into sealed state (a resource's template variables). */
  readonly arguments: Record<string, unknown>;
  /** The request's params, as its trace reports them. */
  readonly params: Parameters<typeof startTrace>[4];
}

/** Serves one round of `subject` through the pipeline of `method`. */
export function serveRound<TSubject, TResult extends object>(
  method: RoundMethod<TSubject, TResult>,
  subject: TSubject,
  request: RoundRequest,
  sdkCtx: ServerContext,
  services: RoundServices,
): MaybePromise<TResult | InputRequiredResult> {
  const trace = startTrace(services, sdkCtx, method.method, request.target, request.params);
  if (trace === undefined) return openAndRun(method, subject, request, sdkCtx, services);
  return endTrace(trace, () => openAndRun(method, subject, request, sdkCtx, services, trace));
}

function openAndRun<TSubject, TResult extends object>(
  method: RoundMethod<TSubject, TResult>,
  subject: TSubject,
  request: RoundRequest,
  sdkCtx: ServerContext,
  services: RoundServices,
  trace?: RequestTrace,
): MaybePromise<TResult | InputRequiredResult> {
  const binding = { method: method.method, target: request.target, arguments: request.arguments };
  const round = openRound(sdkCtx, binding, services, trace);
  if (isPromiseLike(round)) return round.then((scope) => new Round(method, subject, scope, services).run(request));
  return new Round(method, subject, round, services).run(request);
}

/** One round of one request, step by step. */
class Round<TSubject, TResult> {
  /** The subject's resolvers, read once per round: they run before the step and judge its own `input_required`. */
  private readonly resolvedBy: ResolvedBy | undefined;

  constructor(
    private readonly method: RoundMethod<TSubject, TResult>,
    private readonly subject: TSubject,
    private readonly round: RoundScope,
    private readonly services: RoundServices,
  ) {
    this.resolvedBy = method.resolvedBy(subject);
  }

  run(request: RoundRequest): MaybePromise<TResult | InputRequiredResult> {
    const input = this.method.validate(this.subject, request.arguments);
    return isPromiseLike(input) ? input.then((valid) => this.withInput(valid)) : this.withInput(input);
  }

  private withInput(input: Validated<TResult>): MaybePromise<TResult | InputRequiredResult> {
    if (!input.ok) return input.result;
    try {
      const { resolvedBy } = this;
      const resolved = resolvedBy === undefined ? {} : this.round.resolve(resolvedBy.plan, input.args);
      const outcome = isPromiseLike(resolved)
        ? resolved.then((values) => this.runStep(input.args, values))
        : this.runStep(input.args, resolved);
      return isPromiseLike(outcome) ? outcome.catch((error: unknown) => this.fail(error)) : outcome;
    } catch (error) {
      return this.fail(error);
    }
  }

  private runStep(
    args: Record<string, unknown>,
    resolved: Record<string, unknown> | InputRequiredResult,
  ): MaybePromise<TResult | InputRequiredResult> {
    if (isInputRequiredResult(resolved)) return resolved;
    const value = this.method.run(this.subject, args, resolved, this.round, this.services);
    return isPromiseLike(value) ? Promise.resolve(value).then((settled) => this.settle(settled)) : this.settle(value);
  }

  /** The step's value as the round's result: its own `input_required` sealed (or refused), anything else finished. */
  private settle(value: unknown): MaybePromise<TResult | InputRequiredResult> {
    if (!isInputRequiredResult(value)) return this.method.finish(this.subject, value, this.services);
    return this.round.sealAsked(value, this.resolvedBy);
  }

  private fail(error: unknown): TResult {
    return this.method.fail(this.subject, error, this.services, this.round.ctx[requestTrace]);
  }
}
