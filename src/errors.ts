/**
 * The library's coded errors: one base, {@link McpResolveError}, with a closed union of codes and
 * typed `data` per code; {@link ToolError} is the base with the code `'tool_error'`.
 *
 * `instanceof` survives duplicated bundles (two copies of the library in one process): each library
 * class names its brand in an own static `brand` field, and `instanceof` a library class asks
 * whether a class on the value's prototype chain has the same brand (another copy's class of the
 * same name has). An author's subclass has no brand of its own and keeps the plain prototype-chain
 * check.
 */

/** Every code a {@link McpResolveError} can carry. */
export type McpResolveErrorCode =
  /** A tool, prompt, resource, resolver or question declaration is malformed (found at registration). */
  | 'invalid_declaration'
  /** The resolver graph cannot run: a cycle, an unknown input, a mixed flow (found at registration). */
  | 'invalid_graph'
  /** Sealing keys are missing, short, duplicated or of the wrong type (found at construction). */
  | 'invalid_keys'
  /** An option has a value the library cannot use (found at construction). */
  | 'invalid_options'
  /** A handler-shape primitive was used in a way it does not support (found at build or call time). */
  | 'invalid_usage'
  /** A question rendered differently in consecutive rounds (built from a clock or a fresh id; found at call time). */
  | 'nondeterministic_question'
  /** A shared store (Redis) cannot be reached or did not answer in time. */
  | 'redis_unavailable'
  /** A {@link ToolError}: an author failed the call with a message for the client. */
  | 'tool_error';

/** What an error of each code carries in `data`, for a program that catches it (the message is for people). */
export interface McpResolveErrorData {
  readonly invalid_declaration: {
    /** What is declared: a tool, prompt or resource, a resolver, or a question (`elicit()`, `elicitUrl()`, a form's schema). */
    readonly kind: 'tool' | 'prompt' | 'resource' | 'resolver' | 'question';
    /** Its name, when it has one (a registration whose name is the fault has none); a question's is its asker's (a resolver's label, or `'ctx.elicit()'`). */
    readonly name?: string;
    /** The part at fault, as a path: `'name'`, `'body'`, `'input'`, `'input.orderId'`, `'output'`, `'resolve.customer'`, `'deps.order'`, `'options.attempts'`, `'url'`. */
    readonly field?: string;
  };
  readonly invalid_graph: {
    /** Whose `resolve` holds the graph: a tool's or a prompt's. */
    readonly kind: 'tool' | 'prompt';
    /** The tool's or prompt's name. */
    readonly name: string;
    /** The resolver at fault, by its label: its `name`, else its function's name, else the key it was found under. */
    readonly resolver: string;
    /** A cyclic dependency: the labels along the cycle, the first and the last being `resolver`. */
    readonly cycle?: readonly string[];
    /** The resolver's argument at fault (one the input lacks or types otherwise, or a name also used for a dependency). */
    readonly argument?: string;
  };
  readonly invalid_keys: {
    /** Where the keys came from: `createSealer`'s `options.keys` (`requestState.keys`) or the environment variable. */
    readonly source: 'options.keys' | 'MCP_REQUEST_STATE_KEYS';
    /** The position of the key at fault in that list, when one key is. */
    readonly index?: number;
  };
  readonly invalid_options: {
    /** The function or constructor given the option, as the message names it: `'createSealer()'`, `'serveHttp()'`, `'new McpResolveServer()'`. */
    readonly api: string;
    /** The option at fault, as a path into the options (`'maxEntries'`, `'tasks.ttlMs'`, `'sentinel'`); `'serverName'` for `createSealer`'s first argument. */
    readonly option: string;
  };
  readonly invalid_usage: {
    /** What was misused: a function or method (`'once()'`, `'steps()'`, `'ctx.elicit()'`, `'serveHttp()'`), or `'input_required'` returned where resolvers drive the rounds. */
    readonly api: string;
  };
  readonly nondeterministic_question: {
    /** The question's key (its `inputRequests` key: the resolver's label, unique within the tool). */
    readonly key: string;
  };
  readonly redis_unavailable: {
    /** What failed: connecting, claiming the replay epoch record at fleet start, a replay check, a task-store call, an answer-page step, or counting an answer's attempt. */
    readonly operation: 'connect' | 'claim_epoch' | 'replay_check' | 'task_store' | 'answer_page' | 'attempt_count';
    /** The Redis target as the message names it (the URL with its password redacted, or the sentinels and master name), where known. */
    readonly target?: string;
    /** A replay check found the replay records gone (Redis restarted empty, was flushed or failed over without them). */
    readonly recordsLost?: boolean;
  };
  /** A `ToolError` carries no data: its message is the whole story. */
  readonly tool_error: Readonly<Record<string, never>>;
}

/** The last argument of `new McpResolveError(code, message, options)`: the code's data, and the cause. */
export interface McpResolveErrorOptions<C extends McpResolveErrorCode> {
  /** What the throw site knew, shaped by the code. */
  readonly data: McpResolveErrorData[C];
  /** The error behind this one, if any (`Error.cause`). */
  readonly cause?: unknown;
}

/** The options argument of `new McpResolveError(code, …)`: required exactly when the code's data has a required field. */
export type McpResolveErrorArguments<C extends McpResolveErrorCode> =
  Record<never, never> extends McpResolveErrorData[C]
    ? [options?: Partial<McpResolveErrorOptions<C>>]
    : [options: McpResolveErrorOptions<C>];

/** A {@link McpResolveError} of the one code `C`. */
export interface McpResolveErrorOf<C extends McpResolveErrorCode> extends Error {
  /** Which kind of mistake this is; stable across releases. */
  readonly code: C;
  /** What the throw site knew ({@link McpResolveErrorData}); its shape is fixed by `code`. */
  readonly data: McpResolveErrorData[C];
}

/**
 * Every error the library throws on purpose at authors (not at clients), and every {@link ToolError}.
 *
 * As a type it is a union by code, so checking `code` narrows `data`:
 * `if (error instanceof McpResolveError && error.code === 'invalid_options') error.data.option`.
 * A generic class alone would not narrow (`instanceof` gives its instance type, whose `code` and
 * `data` do not discriminate), hence the union; `McpResolveError<'invalid_options'>` is one member.
 */
export type McpResolveError<C extends McpResolveErrorCode = McpResolveErrorCode> = C extends McpResolveErrorCode
  ? McpResolveErrorOf<C>
  : never;

/**
 * The type of the {@link McpResolveError} class. A subclass names its code:
 * `class StoreDown extends McpResolveError<'redis_unavailable'> {}`.
 */
export interface McpResolveErrorConstructor {
  /** A coded error; `options` carries the code's `data` (required when that data has a required field) and a `cause`. */
  new <C extends McpResolveErrorCode>(
    code: C,
    message: string,
    ...options: McpResolveErrorArguments<C>
  ): McpResolveErrorOf<C>;
  /** Every instance, as the union by code, so `instanceof McpResolveError` narrows to a union `code` discriminates. */
  readonly prototype: McpResolveError;
}

/** The data of a code whose data has no required field, when the thrower gives none. */
const NO_DATA: McpResolveErrorData['tool_error'] = Object.freeze({});

/** The brand `type` names in its own static `brand` field; `undefined` for any other value (an author's subclass). */
function ownBrand(type: unknown): string | undefined {
  if (typeof type !== 'function') return undefined;
  const brand: unknown = Object.getOwnPropertyDescriptor(type, 'brand')?.value;
  return typeof brand === 'string' ? brand : undefined;
}

/** Whether a class on `value`'s prototype chain has the brand `brand` (this copy's class or another copy's). */
function hasBrand(value: unknown, brand: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (let proto: unknown = Object.getPrototypeOf(value); typeof proto === 'object' && proto !== null;) {
    if (ownBrand(Object.getOwnPropertyDescriptor(proto, 'constructor')?.value) === brand) return true;
    proto = Object.getPrototypeOf(proto);
  }
  return false;
}

/** The base class; see {@link McpResolveErrorConstructor} for its typed constructor. */
export const McpResolveError: McpResolveErrorConstructor = class McpResolveError<
  C extends McpResolveErrorCode,
> extends Error {
  /** The brand `instanceof McpResolveError` checks, the same in every copy of the package. */
  static readonly brand = 'mcp-resolve.error';

  readonly code: C;
  readonly data: McpResolveErrorData[C];

  constructor(code: C, message: string, ...[options]: McpResolveErrorArguments<C>) {
    super(message, options);
    this.name = 'McpResolveError';
    this.code = code;
    // Only a code whose data has no required field may leave it out: the empty object is its data.
    this.data = options?.data ?? (NO_DATA as McpResolveErrorData[C]);
  }

  /**
   * `instanceof` a library class checks its brand, so it holds across duplicated copies of this
   * package; an author's subclass (unbranded) keeps the plain prototype-chain check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    const brand = ownBrand(this);
    if (brand === undefined) return Function.prototype[Symbol.hasInstance].call(this, value);
    return hasBrand(value, brand);
  }
};

/**
 * Thrown by a tool body or a resolver to fail the call with a message the client sees as an
 * `isError` result (for example `unknown order 'ORD-9999'`). A `McpResolveError` with the code
 * `'tool_error'`; subclass it freely (`class OrderNotFound extends ToolError {}`).
 */
export class ToolError extends McpResolveError<'tool_error'> {
  /** The brand `instanceof ToolError` checks, the same in every copy of the package. */
  static readonly brand: string = 'mcp-resolve.tool-error';

  constructor(message: string, options?: { cause?: unknown }) {
    super('tool_error', message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolError';
  }
}
