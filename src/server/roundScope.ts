/**
 * What every multi-round request (tools/call, prompts/get, resources/read) shares: open the sealed
 * state before anything runs, hand the handler its plaintext, run a round of resolvers on the
 * request's era, and seal whatever state goes back out.
 */
import type { InputRequiredResult, Server, ServerContext } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';

import { elicitationCompleter, type ToolContext } from '../context.js';
import { Ledger } from '../questions/ledger.js';
import { strategyFor } from '../questions/strategy.js';
import type { ResolutionPlan } from '../resolvers/graph.js';
import { isPromiseLike } from '../promise.js';
import { resolvePlan } from '../resolvers/resolvePlan.js';
import type { RequestBinding, RequestStateSealer } from '../state/index.js';
import type { ErrorMasker } from './masking.js';
import { clientCapabilitiesOf, eraOf } from './requestEra.js';

/** What a request needs from the server that owns its handler. */
export interface RoundServices {
  readonly server: Server;
  readonly sealer: RequestStateSealer;
  readonly principal: (ctx: ServerContext) => string | undefined;
  readonly legacyQuestionTimeoutMs: number;
  /** What the client may read of a failure (see masking.ts). */
  readonly maskError: ErrorMasker;
}

/** One request's view of its multi-round flow, with its state already opened. */
export interface RoundScope {
  /** The context handlers receive: the SDK's, plus the era, with `requestState()` returning plaintext. */
  readonly ctx: ToolContext;
  /** Seals state for the response; bound to this request. */
  seal(state: string): Promise<string>;
  /** Runs a round of `plan`: the resolved values (synchronously when nothing is awaited or asked), or the `input_required` result to return. */
  resolve(
    plan: ResolutionPlan,
    args: Readonly<Record<string, unknown>>,
  ): Record<string, unknown> | Promise<Record<string, unknown> | InputRequiredResult>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Opens the request's sealed state (throwing the frozen error for anything not minted for exactly
 * this request) and returns the scope its handler runs in.
 */
export function openRound(
  sdkCtx: ServerContext,
  target: Omit<RequestBinding, 'principal'>,
  services: RoundServices,
): RoundScope | Promise<RoundScope> {
  // The binding (and so the principal) is needed only when state arrives or leaves.
  let binding: RequestBinding | undefined;
  const bindingOf = () => (binding ??= { ...target, principal: services.principal(sdkCtx) });
  const token = sdkCtx.mcpReq.requestState();
  // A first round carries no state: its scope is built synchronously.
  if (typeof token !== 'string') return scopeOf(sdkCtx, undefined, bindingOf, services);
  return services.sealer
    .open(token, bindingOf())
    .then((bytes) => scopeOf(sdkCtx, decoder.decode(bytes), bindingOf, services));
}

function scopeOf(
  sdkCtx: ServerContext,
  plaintext: string | undefined,
  bindingOf: () => RequestBinding,
  services: RoundServices,
): RoundScope {
  const era = eraOf(sdkCtx);
  const ctx: ToolContext = {
    ...sdkCtx,
    era,
    clientCapabilities: clientCapabilitiesOf(sdkCtx, services.server, era),
    // The SDK's notifier on this connection's own Server: the page step of a URL question reports completion here.
    ...(era === 'legacy' && {
      [elicitationCompleter]: (id: string) => services.server.createElicitationCompletionNotifier(id),
    }),
    // With no state the SDK's accessor already answers `undefined`; only plaintext replaces it.
    ...(plaintext !== undefined && { mcpReq: { ...sdkCtx.mcpReq, requestState: <T>() => plaintext as T } }),
  };
  const seal = (state: string) => services.sealer.seal(encoder.encode(state), bindingOf());
  return {
    ctx,
    seal,
    resolve(plan, args) {
      if (plan.params.length === 0) return {};
      const resolved = resolvePlan(plan, args, ctx, () => {
        // A carried ledger this version cannot read means "no progress yet": the call starts over.
        const ledger = plaintext === undefined ? Ledger.fresh() : (Ledger.decode(plaintext) ?? Ledger.blank());
        return strategyFor(ctx, { ledger, legacyTimeoutMs: services.legacyQuestionTimeoutMs });
      });
      if (!isPromiseLike(resolved)) return resolved;
      return resolved.then(async (outcome) =>
        !isInputRequiredResult(outcome) || outcome.requestState === undefined
          ? outcome
          : { ...outcome, requestState: await seal(outcome.requestState) },
      );
    },
  };
}
