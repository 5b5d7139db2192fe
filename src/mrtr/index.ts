/**
 * `mcp-resolve/mrtr`: for tool bodies written by hand rather than with resolvers. Primitives for the
 * handler shapes of multi-round-trip tools (see docs/guides/handler-shapes.md): era dispatch, answer
 * reading, legacy pushes, an at-most-once guard, a step builder, suspending handlers held in
 * memory, and journaled replay; and, for SDK handlers registered with `setup()`, `sealRequestState`
 * (docs/guides/request-state.md).
 *
 * @packageDocumentation
 */
export { answerOf } from './answerOf.js';
export type { HandlerResult, WrappedBody } from './body.js';
export type { EraBody } from './byEra.js';
export { byEra, eraOf } from './byEra.js';
export type { JournaledOptions, SuspendInfo } from './journaled.js';
export type { JournaledContext, JournaledHandler } from './journaledRun.js';
export { journaled } from './journaled.js';
export type { NotAcceptedAction, SuspendingContext, SuspendingHandler, SuspendingOptions } from './suspending.js';
export { CONTINUATION_GONE, ElicitationDeclinedError, suspending } from './suspending.js';
export type { ContinuationStore } from './continuations.js';
export { createContinuationStore } from './continuations.js';
export { once, withOnce } from './once.js';
export { pushElicit } from './pushElicit.js';
export type { StepBuilder } from './steps.js';
export { steps } from './steps.js';
export type { SdkRequestStateSealing } from './sealRequestState.js';
export { sealRequestState } from './sealRequestState.js';
