/**
 * `createSealer`: the one object the server uses to seal outgoing and open incoming `requestState`.
 *
 * Order of checks on open: type → format (version, key, authentication or codec) → binding →
 * time window → replay. The first failure is logged with its reason code and turned into the
 * frozen wire error; nothing secret is logged.
 */
import type { ProtocolError } from '@modelcontextprotocol/server';

import type { BindingDigest, RequestBinding } from './binding.js';
import { digestAudience, digestBinding } from './binding.js';
import { buildEnvelope, openEnvelope } from './envelope.js';
import type { RejectReason, ServerFailureReason } from './errors.js';
import {
  invalidRequestStateError,
  logLocalKeys,
  logRejected,
  logServerFailure,
  sealingInternalError,
} from './errors.js';
import type { InternalSealingOptions, ResolvedSealingOptions, SealingFormat } from './options.js';
import { processKeyRing } from './keys.js';
import { resolveSealingOptions } from './options.js';
import type { CryptoPrimitives } from './primitives.js';
import type { OpenOutcome } from './token.js';
import { builtinTokens, MAX_ISSUED_AT } from './token.js';
import { createTickets, type Tickets } from './tickets.js';
import { createLogLimiter } from '../logLimiter.js';
import { isMultiRoundMethod } from '../protocol.js';
import { isPromiseLike } from '../promise.js';

/** Seals outgoing and opens incoming `requestState` for one server (audience); methods may be passed around detached. */
export interface RequestStateSealer {
  /** The audience every token of this sealer is bound to. */
  readonly audience: string;
  /** Seals a payload bound to the request; a sealing-side failure logs one line and throws a bare `-32603`. */
  seal(this: void, plaintext: Uint8Array, binding: RequestBinding): Promise<string>;
  /**
   * Opens an inbound token for the request; any failure logs one line, tells `refused` its reason
   * code, and throws {@link invalidRequestStateError}.
   */
  open(this: void, token: unknown, binding: RequestBinding, refused?: (reason: string) => void): Promise<Uint8Array>;
  /** Logs once, naming `hosting`, when the keys are this process's own (state dies with the process). */
  warnIfLocal(this: void, hosting: string): void;
  /** The tickets this server mints and recognizes, under its key ring (with a codec: this process's own key). */
  readonly tickets: Tickets;
}

/** One token format: a sealing that may fail (`undefined`) and an opening that names its failure. */
interface Engine {
  seal(
    issuedAt: number,
    binding: BindingDigest,
    plaintext: Uint8Array,
  ): string | undefined | Promise<string | undefined>;
  open(token: string, binding: BindingDigest): OpenOutcome | Promise<OpenOutcome>;
}

function engineFor(format: SealingFormat, audience: string, primitives: CryptoPrimitives): Engine {
  const digest = digestAudience(audience, primitives);
  if (format.kind === 'builtin') return builtinTokens(format.ring, digest, primitives);
  const { codec } = format;
  return {
    seal: async (issuedAt, binding, plaintext) => {
      try {
        const token: unknown = await codec.seal(buildEnvelope(issuedAt, binding, digest, plaintext, primitives));
        return typeof token === 'string' ? token : undefined;
      } catch {
        return undefined;
      }
    },
    open: async (token, binding) => {
      let bytes: unknown;
      try {
        bytes = await codec.unseal(token);
      } catch {
        return { ok: false, reason: 'codec_error' };
      }
      if (!(bytes instanceof Uint8Array)) return { ok: false, reason: 'codec_error' };
      return openEnvelope(bytes, binding, digest, primitives);
    },
  };
}

function timeWindow(issuedAt: number, now: number, resolved: ResolvedSealingOptions): RejectReason | undefined {
  if (issuedAt > now + resolved.skewMs) return 'not_yet_valid';
  if (now > issuedAt + resolved.ttlMs + resolved.skewMs) return 'expired';
  return undefined;
}

function methodOf(binding: unknown): unknown {
  return typeof binding === 'object' && binding !== null && 'method' in binding ? binding.method : undefined;
}

type Checked =
  | { readonly ok: true; readonly plaintext: Uint8Array }
  | { readonly ok: false; readonly reason: RejectReason }
  | { readonly ok: false; readonly failure: ServerFailureReason };

const REPLAY_STORE_ERROR: Checked = { ok: false, failure: 'replay_store_error' };

/** The replay guard's answer as the outcome of an open: a first use passes, a second is a replay. */
function firstUse(first: unknown, plaintext: Uint8Array): Checked {
  if (typeof first !== 'boolean') return REPLAY_STORE_ERROR;
  return first ? { ok: true, plaintext } : { ok: false, reason: 'replayed' };
}

/**
 * Creates the sealer of a server named `serverName` (the default audience); throws
 * `McpResolveError` (`invalid_keys` / `invalid_options`) with an exact message for bad configuration.
 */
export function createSealer(serverName: string, options?: InternalSealingOptions): RequestStateSealer {
  const resolved = resolveSealingOptions(serverName, options);
  const { sink, now, replayStore, primitives } = resolved;
  const engine = engineFor(resolved.format, resolved.audience, primitives);
  // Rejections are client-caused: rate-limited, counted, never silenced.
  const rejections = createLogLimiter((line, about) => sink(line, isMultiRoundMethod(about) ? about : undefined), {
    now,
    ...(options?.rejectionLinesPerInterval !== undefined && { linesPerInterval: options.rejectionLinesPerInterval }),
  });

  const fail = (binding: unknown, failure: ServerFailureReason): ProtocolError => {
    logServerFailure(sink, methodOf(binding), failure);
    return sealingInternalError();
  };

  const seal = async (plaintext: Uint8Array, binding: RequestBinding): Promise<string> => {
    if (!(plaintext instanceof Uint8Array)) throw fail(binding, 'invalid_plaintext');
    const digested = digestBinding(binding, primitives);
    if (!digested.ok) throw fail(binding, digested.reason);
    const issuedAt = Math.floor(now());
    if (!(issuedAt >= 0 && issuedAt <= MAX_ISSUED_AT)) throw fail(binding, 'bad_clock');
    let token = engine.seal(issuedAt, digested.digest, plaintext);
    if (isPromiseLike(token)) token = await token;
    if (token === undefined) throw fail(binding, 'codec_error');
    return token;
  };

  /** Everything after the format opened the token: the time window, then the replay guard. */
  const admit = (opened: OpenOutcome): Checked | Promise<Checked> => {
    if (!opened.ok) return opened;
    const { issuedAt, plaintext, tokenId } = opened.token;
    const late = timeWindow(issuedAt, now(), resolved);
    if (late !== undefined) return { ok: false, reason: late };
    if (replayStore === undefined) return { ok: true, plaintext };
    let first: unknown;
    try {
      first = replayStore.consume(tokenId, issuedAt + resolved.ttlMs + resolved.skewMs, issuedAt);
    } catch {
      return REPLAY_STORE_ERROR;
    }
    // A synchronous store (the in-memory one) answers without a microtask.
    if (!isPromiseLike(first)) return firstUse(first, plaintext);
    return Promise.resolve(first).then(
      (settled) => firstUse(settled, plaintext),
      () => REPLAY_STORE_ERROR,
    );
  };

  const check = (token: unknown, binding: RequestBinding): Checked | Promise<Checked> => {
    if (typeof token !== 'string') return { ok: false, reason: 'not_a_string' };
    const digested = digestBinding(binding, primitives);
    if (!digested.ok) return digested;
    const opened = engine.open(token, digested.digest);
    return isPromiseLike(opened) ? opened.then(admit) : admit(opened);
  };

  const open = async (
    token: unknown,
    binding: RequestBinding,
    refused?: (reason: string) => void,
  ): Promise<Uint8Array> => {
    let checked: Checked;
    try {
      checked = await check(token, binding);
    } catch {
      checked = { ok: false, reason: 'malformed' }; // safety net: nothing unexpected may change the wire error
    }
    if (checked.ok) return checked.plaintext;
    refused?.('failure' in checked ? checked.failure : checked.reason);
    if ('failure' in checked) throw fail(binding, checked.failure);
    logRejected(rejections, methodOf(binding), checked.reason);
    throw invalidRequestStateError();
  };

  let warned = false;
  const warnIfLocal = (hosting: string): void => {
    if (resolved.shared || warned) return;
    warned = true;
    logLocalKeys(sink, hosting);
  };

  const ring = resolved.format.kind === 'builtin' ? resolved.format.ring : processKeyRing(primitives);
  return { audience: resolved.audience, seal, open, warnIfLocal, tickets: createTickets(ring, primitives) };
}
