/** A client that left mid-call: the reason its calls are cancelled with, and how such a failure is recognised. */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/server';

/** The reason a call whose client left is cancelled with (the call's signal aborts with it). */
export const CLIENT_LEFT_REASON = 'The client closed the response stream of this request.';

/**
 * Whether `error` says the client left (closed its call's response stream, or its session): a
 * client-caused failure, logged through a rate limit rather than once per call.
 */
export function isClientLeft(error: unknown): boolean {
  if (!(error instanceof SdkError)) return false;
  return error.message === CLIENT_LEFT_REASON || error.code === SdkErrorCode.ConnectionClosed;
}
