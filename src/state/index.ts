/**
 * `mcp-resolve/state`: sealed `requestState` beyond the defaults: the replay guard's store
 * contract (a shared store for a fleet comes from `mcp-resolve/redis`), the sealing options'
 * types, and `sealRequestState` for SDK handlers registered with `setup()`. See docs/guides/request-state.md.
 *
 * @packageDocumentation
 */
export { principalFrom } from './binding.js';
export type { SealingLogger } from './errors.js';
export { REQUEST_STATE_KEYS_ENV } from './keys.js';
export type { SealingCodec, SealingOptions } from './options.js';
export type { MemoryReplayStore, MemoryReplayStoreOptions, ReplayStore } from './replay.js';
export { createMemoryReplayStore } from './replay.js';
export type { SdkRequestStateSealing, SdkSealingOptions } from './sdkTier.js';
export { sealRequestState } from './sdkTier.js';
