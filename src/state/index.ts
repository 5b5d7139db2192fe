/**
 * Sealed `requestState`: encrypted, authenticated, bound to its request, audience and principal,
 * time-limited and (by default) single-use. See docs/request-state.md.
 */
export type { RequestBinding } from './binding.js';
export { principalFrom } from './binding.js';
export type { RejectReason, SealingLogger, ServerFailureReason } from './errors.js';
export { invalidRequestStateError } from './errors.js';
export { ENVELOPE_OVERHEAD_BYTES, ENVELOPE_VERSION } from './envelope.js';
export { MIN_KEY_BYTES, REQUEST_STATE_KEYS_ENV } from './keys.js';
export type { InternalSealingOptions, SealingCodec, SealingOptions } from './options.js';
export type { CryptoPrimitives } from './primitives.js';
export { nodePrimitives, webPrimitives } from './primitives.js';
export { DEFAULT_SKEW_SECONDS, DEFAULT_TTL_SECONDS } from './options.js';
export type { MemoryReplayStore, MemoryReplayStoreOptions, ReplayStore } from './replay.js';
export { createMemoryReplayStore, DEFAULT_MAX_REPLAY_ENTRIES } from './replay.js';
export type { RequestStateSealer } from './sealer.js';
export { createSealer } from './sealer.js';
export { TOKEN_OVERHEAD_BYTES, TOKEN_VERSION } from './token.js';
export type { SdkRequestStateSealing, SdkSealingOptions } from './sdkTier.js';
export { sealRequestState } from './sdkTier.js';
