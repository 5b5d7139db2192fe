/**
 * What resolvers and tool bodies receive as their context, and how the request's services travel
 * with it: the round builds the context as an instance of a class of this module that keeps them in
 * an ES private field. Not a symbol-keyed field (a spread copies it, anyone can read it) nor a
 * registry keyed by the context: only this module reads the field, and code that derives a context
 * from another carries the services over explicitly ({@link amendedContext}).
 */
import type { ClientCapabilities, ServerContext } from '@modelcontextprotocol/server';

import type { Era } from './protocol.js';
import type { AttemptCounter } from './state/attemptStore.js';
import type { Tickets } from './state/tickets.js';
import type { RequestTrace } from './telemetry/hooks.js';

export type { Era } from './protocol.js';

/**
 * What the code below the round needs of this request beside the public context: one typed value,
 * built where the round starts. A context built outside a round (a handler called directly) has none.
 */
export interface RoundServices {
  /**
   * On a legacy connection, makes the SDK's `notifications/elicitation/complete` sender for an
   * elicitation id, bound to the connection the call came in on (so it never reaches another session).
   */
  readonly completeElicitation?: (elicitationId: string) => () => Promise<void>;
  /** This request's observer, when the server has `telemetry`. */
  readonly trace?: RequestTrace;
  /** The largest answer the server accepts, in bytes (`maxAnswerBytes`). */
  readonly maxAnswerBytes?: number;
  /** Where this call's refused answers are counted (`answerAttempts`). */
  readonly attempts?: AttemptCounter;
  /** The tickets this server mints and recognizes (an app's re-run call sends one back). */
  readonly tickets?: Tickets;
  /** The steps of a task's body recorded by earlier runs, when the body runs as a task. */
  readonly durableSteps?: DurableSteps;
  /** The guard of the `withOnce()` body this context was handed to, which `once()` reads. */
  readonly once?: OnceGuard;
  /**
   * The call's channels beyond in-band, when the server has any: typed as `CallChannels` by
   * `callChannelsOf` in `channels/channel.ts` (channels are built on this module).
   */
  readonly channels?: unknown;
}

/** The steps of one task's body, as its run sees them (journaled steps that outlive the process running them). */
export interface DurableSteps {
  /** Steps completed by earlier runs, by occurrence key (`[value]`, or `[]` for `undefined`). */
  readonly recorded: Readonly<Record<string, readonly unknown[]>>;
  /** Records a completed step; rejects when the run no longer holds the task (the body must stop). */
  record(key: string, entry: readonly unknown[]): Promise<void>;
}

/** The at-most-once guard of one `withOnce()` round: keys done in earlier rounds or this one, and effects running now. */
export interface OnceGuard {
  readonly done: Set<string>;
  readonly running: Map<string, Promise<unknown>>;
}

/**
 * A context as the round builds it: the public fields as its own properties, and this request's
 * {@link RoundServices} in an ES private field. The code below the round takes the services as an
 * argument; only code the user's own code reaches with nothing but the context (the handler-shape
 * wrappers of `mrtr/` and `pushElicit`) reads them here ({@link roundServicesOf}). A private field
 * is no member of the public {@link ToolContext} type, cannot be forged or read from outside this
 * class, and is not copied by a spread: code that derives a context from another goes through
 * {@link amendedContext}, which carries the services over.
 */
class ServicedContext {
  readonly #services: RoundServices;

  constructor(services: RoundServices) {
    this.#services = services;
  }

  /** The services `ctx` carries; `undefined` for a context built outside a round. */
  static servicesOf(ctx: object): RoundServices | undefined {
    return #services in ctx ? ctx.#services : undefined;
  }
}

const NO_SERVICES: RoundServices = {};

/** The services of the request `ctx` belongs to; none for a context built outside a round. */
export function roundServicesOf(ctx: ToolContext): RoundServices {
  return ServicedContext.servicesOf(ctx) ?? NO_SERVICES;
}

/** A context with the fields of `fields` carrying `services`: the one place a context gets its services. */
export function withRoundServices<T extends ToolContext>(fields: T, services: RoundServices): T {
  return Object.assign(new ServicedContext(services), fields);
}

/** `ctx` with `changes` (a fresh object), carrying the services `ctx` carries, if any. */
export function amendedContext<T extends ToolContext>(
  ctx: ToolContext,
  changes: Omit<T, keyof ToolContext> & Partial<ToolContext>,
): T {
  // `changes` supplies every member `T` adds to the context, so the result is a `T`.
  const fields = Object.assign({}, ctx, changes) as T;
  const services = ServicedContext.servicesOf(ctx);
  return services === undefined ? fields : withRoundServices(fields, services);
}

/**
 * The SDK's request context plus the request's era and the client's declared capabilities. On a
 * multi-round call `mcpReq.requestState()` returns the state the handler minted, already unsealed;
 * `mcpReq.id` is the client's id of the request on every hosting path.
 */
export type ToolContext = ServerContext & {
  readonly era: Era;
  /** What the client declared it can answer (the request's envelope on modern, `initialize` on legacy). */
  readonly clientCapabilities: ClientCapabilities | undefined;
};

/**
 * `mcpReq` with `requestState()` answering `state` (plaintext: already unsealed, or a wrapper's own).
 * The one place the accessor is replaced: the round hands a handler its state through it, and the
 * handler-shape wrappers hand their bodies theirs.
 */
export function withStateAccessor(mcpReq: ServerContext['mcpReq'], state: string | undefined): ServerContext['mcpReq'] {
  // The SDK types the accessor as `<T>() => T` (a compile-time cast for callers): this is its one implementation.
  return Object.assign({}, mcpReq, { requestState: <T>() => state as T });
}
