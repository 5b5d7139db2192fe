/** Awaiting only what needs it: a synchronous value passed through `await` still costs a microtask. */

/** Whether `value` is a promise (or any thenable) that must be awaited. */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
