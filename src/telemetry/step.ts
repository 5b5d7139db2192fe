/** Timing one step (a resolver run) for an observer, synchronous or not. */
import { isPromiseLike } from '../promise.js';
import type { RequestTrace } from './hooks.js';

/** Runs `step`, then `end` (with the error when it threw or rejected); returns what `step` returned. */
export function traceStep<T>(end: ReturnType<RequestTrace['resolver']>, step: () => T): T {
  let value: T;
  try {
    value = step();
  } catch (error) {
    end(error);
    throw error;
  }
  if (!isPromiseLike(value)) {
    end();
    return value;
  }
  return Promise.resolve(value).then(
    (settled) => {
      end();
      return settled;
    },
    (error: unknown) => {
      end(error);
      throw error;
    },
  ) as T;
}
