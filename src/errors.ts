/**
 * The library's coded error hierarchy: one base class, a closed union of codes.
 *
 * `instanceof` survives duplicated bundles (two copies of the library in one process) through a
 * global symbol brand, the same technique the official SDK uses for its own errors.
 */

const BRAND = Symbol.for('mcp-resolve.error');

/** Every code a {@link McpResolveError} can carry. */
export type McpResolveErrorCode =
  /** A tool or resolver declaration is malformed (found at registration). */
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
  | 'redis_unavailable';

/** Base class of every error the library throws on purpose at authors (not at clients). */
export class McpResolveError extends Error {
  /** Which kind of mistake this is; stable across releases. */
  readonly code: McpResolveErrorCode;

  constructor(code: McpResolveErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpResolveError';
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /**
   * `instanceof McpResolveError` by brand, so it holds across duplicated copies of this package; a
   * subclass keeps the plain prototype-chain check (the brand is not inherited as a test).
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== McpResolveError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && BRAND in value;
  }
}

const TOOL_ERROR_BRAND = Symbol.for('mcp-resolve.tool-error');

/**
 * Thrown by a tool body or a resolver to fail the call with a message the client sees as an
 * `isError` result (for example `unknown order 'ORD-9999'`).
 */
export class ToolError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolError';
    Object.defineProperty(this, TOOL_ERROR_BRAND, { value: true });
  }

  /**
   * `instanceof ToolError` by brand, so it holds across duplicated copies of this package; a
   * subclass (`class OrderNotFound extends ToolError {}`) keeps the plain prototype-chain check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== ToolError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && TOOL_ERROR_BRAND in value;
  }
}
