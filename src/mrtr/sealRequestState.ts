/**
 * The opt-in for handlers written directly against the SDK (the low-level tier): one object that is
 * both the SDK's `requestState.verify` hook and the minting function handlers call.
 *
 * ```ts
 * const sealing = sealRequestState('my-server', { keys: [process.env.STATE_KEY!] });
 * const server = new McpServer(info, { requestState: sealing });  // the one line
 * // in a handler: return inputRequired({ inputRequests, requestState: await sealing.mint(progress, ctx) });
 * // on the next round: ctx.mcpReq.requestState<Progress>() is the verified, decrypted value
 * ```
 *
 * The SDK's hook sees the request's method and context but not its target or arguments, so at this
 * tier a token is bound to the method, audience, principal and time (and is single-use by default),
 * not to the tool or its arguments. Servers built with `McpResolveServer` get the full binding.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import { McpResolveError } from '../errors.js';
import type { RequestBinding } from '../state/binding.js';
import { principalFrom } from '../state/binding.js';
import { invalidRequestStateError } from '../state/errors.js';
import { describeType } from '../state/keys.js';
import type { SealingOptions } from '../state/options.js';
import type { ErrorHook } from '../round/masking.js';
import { sealingSink } from '../round/masking.js';
import { createSealer } from '../state/sealer.js';
import { isMultiRoundMethod } from '../protocol.js';

/** What `sealRequestState` returns: pass it as the SDK's `requestState` option, and mint with it. */
export interface SdkRequestStateSealing {
  /** The SDK hook: opens a token minted by `mint` for this method and principal, or throws (frozen -32602). */
  verify(this: void, state: string, ctx: ServerContext): Promise<unknown>;
  /** Seals a JSON-serialisable value into an opaque `requestState` for the current request. */
  mint(this: void, value: unknown, ctx: ServerContext): Promise<string>;
}

/**
 * Creates sealing for a server written directly against the SDK (see the module comment). `options`
 * are the sealing options plus `principal`, the principal a request acts for (default: one derived
 * from the validated auth info), and `onerror`, which receives each rejection, sealing failure and
 * warning as an `Error` whose message is its line (`name` `requestState`; default: the line on stderr).
 */
export function sealRequestState(
  serverName: string,
  options: SealingOptions & {
    /** The principal a request acts for; defaults to one derived from the validated auth info. */
    readonly principal?: (ctx: ServerContext) => string | undefined;
    /** Receives each rejection, sealing failure and warning as an `Error` whose message is its line (default: the line on stderr). */
    readonly onerror?: ErrorHook;
  } = {},
): SdkRequestStateSealing {
  const { principal = (ctx: ServerContext) => principalFrom(ctx.http?.authInfo), onerror, ...sealing } = options;
  if (onerror !== undefined && typeof onerror !== 'function') {
    throw new McpResolveError(
      'invalid_options',
      `sealRequestState(): options.onerror must be a function (got ${describeType(onerror)}).`,
      { data: { api: 'sealRequestState()', option: 'onerror' } },
    );
  }
  const sealer = createSealer(serverName, { ...sealing, ...(onerror !== undefined && { sink: sealingSink(onerror) }) });
  const bindingOf = (ctx: ServerContext): RequestBinding | undefined =>
    isMultiRoundMethod(ctx.mcpReq.method)
      ? {
          method: ctx.mcpReq.method,
          target: '',
          arguments: null,
          principal: principal(ctx),
        }
      : undefined;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return {
    async verify(state, ctx) {
      const binding = bindingOf(ctx);
      if (binding === undefined) throw invalidRequestStateError();
      const plaintext = decoder.decode(await sealer.open(state, binding));
      return JSON.parse(plaintext) as unknown;
    },
    async mint(value, ctx) {
      const binding = bindingOf(ctx);
      if (binding === undefined) {
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          `sealRequestState: mint() was called while handling ${ctx.mcpReq.method}; only tools/call, prompts/get and resources/read carry requestState.`,
        );
      }
      return sealer.seal(encoder.encode(JSON.stringify(value)), binding);
    },
  };
}
