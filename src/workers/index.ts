/**
 * `mcp-resolve/workers`: what a Cloudflare Worker needs beyond the runtime-neutral root entry. The
 * replay guard of sealed `requestState` on Durable Objects: the object class
 * ({@link ReplayGuardObject}, exported from the Worker's main module) and the store that calls it
 * ({@link createDurableObjectReplayStore}, passed as `requestState.replayStore`). Web-standard APIs only.
 *
 * @packageDocumentation
 */
export { ReplayGuardObject } from './replayGuardObject.js';
export type { ReplayGuardState, ReplayGuardStorage } from './replayGuardObject.js';
export { createDurableObjectReplayStore } from './replayStore.js';
export type { ReplayGuardNamespace, ReplayGuardStub } from './replayStore.js';
