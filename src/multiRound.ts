/** The one declaration of the requests that can run for several rounds (carry `requestState` and `inputResponses`). */

/** Every multi-round method, in the order the spec lists them. */
export const MULTI_ROUND_METHODS = ['tools/call', 'prompts/get', 'resources/read'] as const;

/** A method whose requests can run for several rounds. */
export type MultiRoundMethod = (typeof MULTI_ROUND_METHODS)[number];

const METHOD_SET: ReadonlySet<unknown> = new Set(MULTI_ROUND_METHODS);

/** Whether `method` is a multi-round method. */
export function isMultiRoundMethod(method: unknown): method is MultiRoundMethod {
  return METHOD_SET.has(method);
}
