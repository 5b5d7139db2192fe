/**
 * `mcp-resolve/mrtr`: primitives for the handler shapes of multi-round-trip tools (see
 * docs/guides/handler-shapes.md): era dispatch, answer reading, legacy pushes, an at-most-once guard,
 * a step builder, linear continuations held in memory, and journaled replay.
 *
 * @packageDocumentation
 */
export { answerOf } from './answerOf.js';
export type { HandlerResult, WrappedBody } from './body.js';
export type { EraBody } from './byEra.js';
export { byEra, eraOf } from './byEra.js';
export type { JournaledContext, JournaledHandler, JournaledOptions, SuspendInfo } from './journaled.js';
export { DEFAULT_MAX_JOURNAL_BYTES, journaled } from './journaled.js';
export type { LinearContext, LinearHandler, LinearOptions, NotAcceptedAction } from './linear.js';
export { CONTINUATION_GONE, ElicitationDeclinedError, linear } from './linear.js';
export type { ContinuationStore, ContinuationStoreOptions } from './continuations.js';
export { createContinuationStore } from './continuations.js';
export { once, withOnce } from './once.js';
export type { PushOptions } from './pushElicit.js';
export { DEFAULT_PUSH_TIMEOUT_MS, pushElicit } from './pushElicit.js';
export type { EndFn, FinishedSteps, NewStepName, StepBuilder, StepFn } from './steps.js';
export { steps } from './steps.js';
