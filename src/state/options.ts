/**
 * Validation and defaults of {@link SealingOptions}: every mistake is a construction error with an
 * exact message, and nothing secret is ever printed.
 */
import { McpResolveError } from '../errors.js';
import type { SealingSink } from './errors.js';
import type { KeyRing } from './keys.js';
import { describeType, keyRingFromEnv, keyRingFromOption, processKeyRing, REQUEST_STATE_KEYS_ENV } from './keys.js';
import type { CryptoPrimitives } from './primitives.js';
import { defaultPrimitives } from './primitives.js';
import type { ReplayStore } from './replay.js';
import { createMemoryReplayStore, processReplayStore } from './replay.js';

/** A bring-your-own sealing codec (KMS, HSM); `unseal` must throw for anything it did not mint. */
export interface SealingCodec {
  /** Turns the library's envelope bytes into an opaque string. */
  seal(plaintext: Uint8Array): string | Promise<string>;
  /** Turns a string this codec minted back into the exact bytes; throws for anything else. */
  unseal(token: string): Uint8Array | Promise<Uint8Array>;
}

/** Options of `createSealer`; every one has a safe default. */
export interface SealingOptions {
  /** Key ring: the first key seals, all verify; ≥ 32 bytes each; strings are hex or base64(url). Default: `MCP_REQUEST_STATE_KEYS`, else one random key per process. */
  keys?: ReadonlyArray<string | Uint8Array>;
  /** What tokens are bound to besides the request (default: the server name). */
  audience?: string;
  /** How long one round's token stays valid, in milliseconds (default 600,000: ten minutes). */
  ttlMs?: number;
  /** Clock skew tolerated between instances, in milliseconds, on both ends of the validity window (default 30,000). */
  skewMs?: number;
  /** Bring-your-own codec used instead of the built-in AES-256-GCM token; the library still stamps and checks time and binding. */
  codec?: SealingCodec;
  /** Single-use tokens: `true` (default) is an in-memory store per process, `false` turns it off, or pass a shared store. */
  replayStore?: boolean | ReplayStore;
  /** Clock in ms since the epoch, for tests (default `Date.now`). */
  now?: () => number;
}

/** Sealing options plus where reports go and the choice of primitives (tests and benchmarks compare them; same token format). */
export interface InternalSealingOptions extends SealingOptions {
  /** Where each rejection, failure and warning line goes (default: stderr, `console.warn`); the server's `onerror` when it has one. */
  sink?: SealingSink | undefined;
  /** Default: synchronous `node:crypto` where the runtime has it, else Web Crypto. */
  primitives?: CryptoPrimitives;
  /** Rejection lines written per 10 s before they are counted instead (default 5; tests that read every reason lift it). */
  rejectionLinesPerInterval?: number;
}

/** How tokens are produced: the built-in AEAD with a key ring, or a codec. */
export type SealingFormat =
  { readonly kind: 'builtin'; readonly ring: KeyRing } | { readonly kind: 'codec'; readonly codec: SealingCodec };

/** Options after validation, with every default applied. */
export interface ResolvedSealingOptions {
  /** The audience tokens are bound to. */
  readonly audience: string;
  /** The TTL of one round, in ms. */
  readonly ttlMs: number;
  /** The skew allowance, in ms. */
  readonly skewMs: number;
  /** The built-in format with its ring, or the codec. */
  readonly format: SealingFormat;
  /** Where consumed token ids go, or undefined when the guard is off. */
  readonly replayStore: ReplayStore | undefined;
  /** Where reports go. */
  readonly sink: SealingSink;
  /** The clock, ms since the epoch. */
  readonly now: () => number;
  /** False when the keys are one random key of this process (no keys, codec or `MCP_REQUEST_STATE_KEYS`). */
  readonly shared: boolean;
  /** The cryptographic primitives (same bytes whichever is chosen). */
  readonly primitives: CryptoPrimitives;
}

/** The default TTL of one round, in seconds. */
export const DEFAULT_STATE_TTL_MS = 600_000;

/** The default clock-skew allowance, in seconds. */
export const DEFAULT_SKEW_MS = 30_000;

function invalidOptions(option: string, message: string): McpResolveError {
  return new McpResolveError('invalid_options', `createSealer(): ${message}`, {
    data: { api: 'createSealer()', option },
  });
}

function milliseconds(value: unknown, name: string, fallback: number, allowZero: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    const shown = typeof value === 'number' ? String(value) : describeType(value);
    const wanted = allowZero
      ? 'a finite number of milliseconds, 0 or more'
      : 'a positive finite number of milliseconds';
    throw invalidOptions(name, `options.${name} must be ${wanted} (got ${shown}).`);
  }
  return value;
}

/** The value of an environment variable where the runtime has `process.env` (Node, Bun, Deno; not a Worker). */
function environmentValue(name: string): string | undefined {
  const host: { process?: { env?: Record<string, string | undefined> } } = globalThis;
  return host.process?.env?.[name];
}

function resolveFormat(
  options: SealingOptions,
  primitives: CryptoPrimitives,
): { format: SealingFormat; shared: boolean } {
  const { keys, codec } = options;
  if (codec !== undefined) {
    if (keys !== undefined)
      throw invalidOptions('codec', 'pass options.keys or options.codec, not both; a codec brings its own keys.');
    if (
      typeof codec !== 'object' ||
      codec === null ||
      typeof codec.seal !== 'function' ||
      typeof codec.unseal !== 'function'
    ) {
      throw invalidOptions('codec', 'options.codec must be an object with seal(bytes) and unseal(token) methods.');
    }
    return { format: { kind: 'codec', codec }, shared: true };
  }
  if (keys !== undefined) {
    return { format: { kind: 'builtin', ring: keyRingFromOption(keys, primitives) }, shared: true };
  }
  const fromEnv = environmentValue(REQUEST_STATE_KEYS_ENV);
  if (fromEnv !== undefined) {
    return { format: { kind: 'builtin', ring: keyRingFromEnv(fromEnv, primitives) }, shared: true };
  }
  return { format: { kind: 'builtin', ring: processKeyRing(primitives) }, shared: false };
}

function resolveAudience(serverName: unknown, audience: unknown, shared: boolean, needs: string): string {
  if (audience !== undefined) {
    if (typeof audience !== 'string' || audience.length === 0) {
      throw invalidOptions(
        'audience',
        `options.audience must be a non-empty string (got ${typeof audience === 'string' ? 'an empty string' : describeType(audience)}).`,
      );
    }
    return audience;
  }
  if (serverName !== undefined && typeof serverName !== 'string') {
    throw invalidOptions('serverName', `the server name must be a string (got ${describeType(serverName)}).`);
  }
  const name = serverName ?? '';
  if (name.length === 0 && shared) {
    throw invalidOptions(
      'audience',
      `${needs} an audience, so that two services sharing a key still reject each other's tokens; pass a non-empty server name or options.audience (got an empty server name). Every instance that shares the keys must use the same audience.`,
    );
  }
  return name;
}

function resolveReplayStore(
  replayStore: SealingOptions['replayStore'],
  now: (() => number) | undefined,
): ReplayStore | undefined {
  if (replayStore === false) return undefined;
  if (replayStore === undefined || replayStore === true) {
    return now === undefined ? processReplayStore() : createMemoryReplayStore({ now });
  }
  if (typeof replayStore !== 'object' || replayStore === null || typeof replayStore.consume !== 'function') {
    throw invalidOptions(
      'replayStore',
      `options.replayStore must be true, false or a ReplayStore with consume(tokenId, expiresAt) (got ${describeType(replayStore)}).`,
    );
  }
  return replayStore;
}

/** Validates `createSealer`'s arguments and applies every default. */
export function resolveSealingOptions(
  serverName: string,
  options: InternalSealingOptions | undefined,
): ResolvedSealingOptions {
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw invalidOptions('options', `options must be an object (got ${describeType(options)}).`);
  }
  const given: InternalSealingOptions = options ?? {};
  const primitives = given.primitives ?? defaultPrimitives();
  if (given.now !== undefined && typeof given.now !== 'function') {
    throw invalidOptions(
      'now',
      `options.now must be a function returning ms since the epoch (got ${describeType(given.now)}).`,
    );
  }
  const ttlMs = milliseconds(given.ttlMs, 'ttlMs', DEFAULT_STATE_TTL_MS, false);
  const skewMs = milliseconds(given.skewMs, 'skewMs', DEFAULT_SKEW_MS, true);
  const { format, shared } = resolveFormat(given, primitives);
  const needs =
    given.codec !== undefined
      ? 'a codec (options.codec) needs'
      : given.keys !== undefined
        ? 'explicit keys (options.keys) need'
        : `keys from ${REQUEST_STATE_KEYS_ENV} need`;
  const audience = resolveAudience(serverName, given.audience, shared, needs);
  const replayStore = resolveReplayStore(given.replayStore, given.now);
  return {
    audience,
    ttlMs,
    skewMs,
    format,
    replayStore,
    sink: given.sink ?? ((line) => console.warn(line)),
    now: given.now ?? Date.now,
    primitives,
    shared,
  };
}
