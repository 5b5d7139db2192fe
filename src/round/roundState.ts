/**
 * A round's state, the steps every multi-round request (tools/call, prompts/get, resources/read)
 * shares: observe the request ({@link startTrace}, {@link endTrace}), open its sealed state before
 * anything runs ({@link openRoundState}), hand the handler its plaintext, resolve on the request's
 * era ({@link RoundState.resolve}), and seal whatever state goes back out ({@link RoundState.sealAsked}).
 */
import type { InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import type { RoundServices, ToolContext } from '../context.js';
import type { CallChannels } from '../channels/channel.js';
import type { Ledger } from '../questions/ledger.js';
import type { HandOff } from '../questions/strategy.js';
import type { ResolutionPlan } from '../resolvers/graph.js';
import { isPromiseLike } from '../promise.js';
import type { RequestBinding } from '../state/binding.js';
import type { RequestStateSealer } from '../state/sealer.js';
import { splitCarried, withCarried } from '../telemetry/carried.js';
import type { RequestTrace } from '../telemetry/hooks.js';
import { protocolVersionOf, eraOf, toolContextOf } from './requestEra.js';
import type { InstanceServices } from './services.js';
import { resolvePlan } from './passes.js';
import { StrategyOnDemand } from './strategies.js';

/** The plan that resolved a handler's parameters, and what the handler is (for the message). */
export interface ResolvedBy {
  readonly plan: ResolutionPlan;
  readonly handler: 'tool' | 'prompt';
}

/** What sealed state of a request is bound to, before the principal is read: its method, target and arguments. */
export type BindingTarget = Omit<RequestBinding, 'principal'>;

/**
 * The one rule for a handler that returns `input_required` itself where it cannot: when resolvers
 * drive the flow (one flow per call, for tools and prompts alike), or when the tool runs as a task
 * (a task asks through its resolvers, parked in `input_required`). Both are `invalid_usage`, shown
 * to the client unmasked.
 */
export function refusedInputRequired(handler: 'tool' | 'prompt', task?: { readonly tool: string }): McpResolveError {
  const message =
    task === undefined
      ? `the multi-round flow is driven either by resolvers or by the ${handler} body: a ${handler} with resolved parameters cannot return input_required itself`
      : `Tool ${task.tool} returned input_required from its body while running as a task; ask through a resolver instead.`;
  return new McpResolveError('invalid_usage', message, { data: { api: 'input_required' } });
}

const stateEncoder = new TextEncoder();
const stateDecoder = new TextDecoder();

/** Starts the observer of a request to `target`, or `undefined` when the server has no `telemetry` (or it failed). */
export function startTrace(
  services: InstanceServices,
  ctx: ServerContext,
  method: string,
  target: string,
  params: { readonly arguments?: Record<string, unknown>; readonly _meta?: Record<string, unknown> },
): RequestTrace | undefined {
  const { telemetry } = services;
  if (telemetry === undefined) return undefined;
  const era = eraOf(ctx);
  try {
    return telemetry.request({
      method,
      target,
      requestId: services.clientIdOf(ctx.mcpReq.id),
      protocolVersion: protocolVersionOf(ctx, services.server, era),
      era,
      arguments: params.arguments ?? {},
      meta: params._meta,
      startedAt: services.inbound?.claim(ctx.mcpReq.id) ?? Date.now(),
    });
  } catch {
    return undefined;
  }
}

/** A result as the trace reads it: `isError` on a tool result, `resultType: 'task'` on a created task. */
interface EndedResult {
  readonly isError?: boolean;
  readonly resultType?: string;
}

/** Ends `trace` (when the request has one) with how `result` ended the round; returns `result`. */
export function endTrace<T extends object>(trace: RequestTrace | undefined, result: T): T {
  if (trace === undefined) return result;
  const ended: EndedResult = result;
  if (isInputRequiredResult(result)) trace.end('input_required');
  else if (ended.resultType === 'task') trace.end('task');
  else trace.end(ended.isError === true ? 'tool_error' : 'completed');
  return result;
}

/** Ends `trace` (when the request has one) with the error that ended the round; returns `error`, to rethrow. */
export function failTrace(trace: RequestTrace | undefined, error: unknown): unknown {
  trace?.end('error', error);
  return error;
}

/**
 * Opens the request's sealed state (throwing the frozen error for anything not minted for exactly
 * this request, telling `trace` what the state carried or why it was refused) and returns the
 * round's state. A first round carries no state: its round state is returned at once, not as a
 * promise (the call that asks nothing costs no microtask here).
 */
export function openRoundState(
  sdkCtx: ServerContext,
  target: BindingTarget,
  services: InstanceServices,
  trace: RequestTrace | undefined,
): RoundState | Promise<RoundState> {
  const token = sdkCtx.mcpReq.requestState();
  if (typeof token === 'string') return openSealedState(sdkCtx, token, target, services, trace);
  trace?.opened(undefined, undefined, undefined);
  return new RoundState(sdkCtx, undefined, target, services, trace);
}

/** Opens the state `token` a later round carries (see {@link openRoundState}). */
async function openSealedState(
  sdkCtx: ServerContext,
  token: string,
  target: BindingTarget,
  services: InstanceServices,
  trace: RequestTrace | undefined,
): Promise<RoundState> {
  const binding = bindingOf(target, sdkCtx, services);
  const startedAt = trace === undefined ? undefined : Date.now();
  let refusal: string | undefined;
  let bytes: Uint8Array;
  try {
    bytes = await services.sealer.open(token, binding, trace && ((reason) => (refusal = reason)));
  } catch (error) {
    trace?.opened(undefined, refusal ?? 'error', startedAt);
    throw error;
  }
  const { carried, state } = splitCarried(bytes);
  trace?.opened(carried, undefined, startedAt);
  return new RoundState(sdkCtx, stateDecoder.decode(state), target, services, trace, binding);
}

/** What sealed state of this request is bound to: its target, and the principal read from `ctx`. */
function bindingOf(target: BindingTarget, ctx: ServerContext, services: InstanceServices): RequestBinding {
  return Object.assign({}, target, { principal: services.principal(ctx) });
}

/** One round's state, opened: its context, its binding (computed only when state arrives or leaves) and its plaintext. */
export class RoundState {
  /** The context handlers receive: the SDK's, plus the era, with `requestState()` returning plaintext. */
  readonly ctx: ToolContext;
  /** This request's services, handed to the code below the round. */
  readonly round: RoundServices;
  #binding: RequestBinding | undefined;
  /** The strategy of this round's resolution, once it resolved a plan. */
  #strategy: StrategyOnDemand | undefined;

  constructor(
    sdkCtx: ServerContext,
    private readonly plaintext: string | undefined,
    private readonly target: BindingTarget,
    readonly services: InstanceServices,
    /** The request's observer, when the server has one. */
    readonly trace: RequestTrace | undefined,
    binding?: RequestBinding,
  ) {
    this.#binding = binding;
    // The call's channels are in its services: the round's strategy and a handler that builds its own (`journaled`) find them there.
    const built = toolContextOf(sdkCtx, plaintext, services, trace, target.target, this.callChannels());
    this.ctx = built.ctx;
    this.round = built.round;
  }

  /** The call's channels beyond in-band, when the server has any: who asks is this request's principal, tool and arguments. */
  private callChannels(): CallChannels | undefined {
    const { channels } = this.services;
    if (channels.length === 0) return undefined;
    return { providers: channels, caller: () => (this.#binding ??= bindingOf(this.target, this.ctx, this.services)) };
  }

  /**
   * Resolves `plan` for this round (the legacy era pushes its questions and passes again, in process):
   * the values, the `input_required` result (ledger sealed) or a hand-off; sync when nothing asks.
   */
  resolve(
    plan: ResolutionPlan,
    args: Readonly<Record<string, unknown>>,
  ): Record<string, unknown> | Promise<Record<string, unknown> | InputRequiredResult | HandOff> {
    if (plan.params.length === 0) return {};
    const timeoutMs = this.services.legacyQuestionTimeoutMs;
    this.#strategy ??= new StrategyOnDemand(this.ctx, this.round, this.plaintext, timeoutMs);
    const outcome = resolvePlan(plan, args, this.ctx, this.round, this.#strategy);
    return isPromiseLike(outcome) ? this.sealedOutcome(outcome) : outcome;
  }

  private async sealedOutcome(
    outcome: Promise<Record<string, unknown> | InputRequiredResult | HandOff>,
  ): Promise<Record<string, unknown> | InputRequiredResult | HandOff> {
    const settled = await outcome;
    return isInputRequiredResult(settled) ? this.sealAsked(settled) : settled;
  }

  /**
   * A handler's own `input_required` on its way out (or the resolvers'), its `requestState` sealed.
   * When resolvers drive the flow (`resolvedBy` has resolved parameters) the body may not ask
   * itself: one flow per call, for tools and prompts alike (`invalid_usage`).
   */
  async sealAsked(value: InputRequiredResult, resolvedBy?: ResolvedBy): Promise<InputRequiredResult> {
    if (resolvedBy !== undefined && resolvedBy.plan.params.length > 0) throw refusedInputRequired(resolvedBy.handler);
    const state = value.requestState;
    return state === undefined ? value : { ...value, requestState: await this.seal(state) };
  }

  /** Seals `state` for the response; bound to this request. */
  seal(state: string): Promise<string> {
    // The principal is read once, when state first arrives or leaves.
    this.#binding ??= bindingOf(this.target, this.ctx, this.services);
    const { trace } = this;
    if (trace === undefined)
      return this.services.sealer.seal(withCarried(stateEncoder.encode(state), undefined), this.#binding);
    return sealTraced(
      this.services.sealer,
      withCarried(stateEncoder.encode(state), trace.carry()),
      this.#binding,
      trace,
    );
  }

  /** The ledger of this round's strategy once built (a task created on this round records its answers). */
  get ledger(): Ledger | undefined {
    return this.#strategy?.ledger;
  }
}

/** Seals for an observed request, telling its trace how long sealing took and whether it failed. */
async function sealTraced(
  sealer: RequestStateSealer,
  plaintext: Uint8Array,
  binding: RequestBinding,
  trace: RequestTrace,
): Promise<string> {
  const startedAt = Date.now();
  try {
    const token = await sealer.seal(plaintext, binding);
    trace.sealed(startedAt);
    return token;
  } catch (error) {
    trace.sealed(startedAt, 'error');
    throw error;
  }
}
