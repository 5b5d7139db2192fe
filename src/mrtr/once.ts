/**
 * An at-most-once guard for side effects in a modern-native body. `withOnce(body)`
 * keeps the keys of effects that already ran in the state the body returns (sealed by the library)
 * and hands the body its own state back untouched; `once(ctx, key, fn)` skips `fn` when `key` is
 * recorded. Not crash-safe: an effect that ran in a round whose reply never reached the client runs
 * again when the client starts over.
 */
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { type OnceGuard, roundServicesOf, type ToolContext, withRoundServices } from '../context.js';
import { McpResolveError, ToolError } from '../errors.js';
import type { HandlerResult, WrappedBody } from './body.js';
import { withRequestState } from './body.js';
import { parseState } from './json.js';

/** The wire shape of the state `withOnce` returns: done keys, and the body's own state. */
const OnceState = z.object({ v: z.literal(1), o: z.array(z.string()), s: z.string().optional() });
type OnceState = z.infer<typeof OnceState>;

function decodeOnceState(plaintext: unknown): { done: string[]; inner: string | undefined } {
  if (plaintext === undefined) return { done: [], inner: undefined };
  const state = parseState(plaintext, OnceState);
  // Sealed state only the library mints: an unknown shape is a redeploy mid-call, and guessing could repeat an effect.
  if (state === undefined) {
    throw new ToolError('withOnce(): this call carries state from an incompatible version; start the call over.');
  }
  return { done: state.o, inner: state.s };
}

function encode(done: ReadonlySet<string>, inner: string | undefined): string {
  const state: OnceState = { v: 1, o: [...done], ...(inner !== undefined && { s: inner }) };
  return JSON.stringify(state);
}

/**
 * Wraps a modern-native tool body so `once(ctx, key, fn)` works inside it: the keys of effects
 * that ran travel in the `requestState` of every `input_required` it returns.
 */
export function withOnce<TArgs>(
  body: (
    args: TArgs,
    ctx: ToolContext,
  ) => HandlerResult | InputRequiredResult | Promise<HandlerResult | InputRequiredResult>,
): WrappedBody<TArgs> {
  return async (args: TArgs, ctx: ToolContext) => {
    const { done, inner } = decodeOnceState(ctx.mcpReq.requestState());
    const record: OnceGuard = { done: new Set(done), running: new Map() };
    // The guard travels with the body's context, as the round's services do: `once(ctx, …)` finds it there.
    const innerCtx = withRoundServices(withRequestState(ctx, inner), { ...roundServicesOf(ctx), once: record });
    const result = await body(args, innerCtx);
    if (!isInputRequiredResult(result)) return result;
    await Promise.allSettled(record.running.values());
    return { ...result, requestState: encode(record.done, result.requestState) };
  };
}

/**
 * Runs `fn` unless an earlier round of this call (or this round) already ran `key`; resolves with
 * `fn`'s result, or `undefined` when skipped (the result is not recorded).
 */
export async function once<T>(ctx: ToolContext, key: string, fn: () => T | Promise<T>): Promise<T | undefined> {
  const record = roundServicesOf(ctx).once;
  if (record === undefined) {
    throw new McpResolveError(
      'invalid_usage',
      `once(): ctx does not belong to a withOnce() body (key '${key}'). ` +
        'Wrap the tool body: .tool(name, { input }, withOnce(async (args, ctx) => …)).',
      { data: { api: 'once()' } },
    );
  }
  if (record.done.has(key)) return undefined;
  const running = record.running.get(key);
  if (running !== undefined) {
    await running;
    return undefined;
  }
  const run = (async () => fn())();
  record.running.set(key, run);
  try {
    const value = await run;
    record.done.add(key);
    return value;
  } finally {
    record.running.delete(key);
  }
}
