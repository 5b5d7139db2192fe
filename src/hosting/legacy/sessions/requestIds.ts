/** The ids of the requests a parsed POST body carries (a message, or a batch of them). */
import type { RequestId } from '@modelcontextprotocol/server';
import { isJSONRPCRequest } from '@modelcontextprotocol/server';

/** The ids of the requests in a parsed POST body (none for `undefined`, notifications or responses). */
export function requestIds(body: unknown): RequestId[] {
  if (body === undefined) return [];
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => (isJSONRPCRequest(message) ? [message.id] : []));
}
