/**
 * Requests `serveHttp` answers with 400 before anything builds their URL (which would fail, as a
 * 500): a malformed `Host` header, or a request target that is not a path — an absolute URL
 * (`GET http://host/mcp`, which only proxies are sent) or `*` (`OPTIONS *`).
 */
import type { IncomingMessage } from 'node:http';

import { isMalformedHost, MALFORMED_HOST_BODY } from '../hosting/rebindingGuard.js';

/** Why a request is refused: what `onerror` is told, and the JSON-RPC error body of the 400. */
export interface UnreadableRequest {
  readonly report: string;
  readonly body: string;
}

const NOT_A_PATH_BODY = JSON.stringify({
  jsonrpc: '2.0',
  error: {
    code: -32600,
    message: "Bad Request: the request target must be a path such as /mcp, not an absolute URL or '*'",
  },
  id: null,
});

/** Why `req` cannot be turned into a URL, or `undefined` when it can. */
export function unreadableRequest(req: IncomingMessage): UnreadableRequest | undefined {
  const { host } = req.headers;
  if (host !== undefined && isMalformedHost(host)) {
    return { report: 'Rejected request: malformed Host header (400)', body: MALFORMED_HOST_BODY };
  }
  if (req.url?.startsWith('/') !== true) {
    return { report: 'Rejected request: request target is not a path (400)', body: NOT_A_PATH_BODY };
  }
  return undefined;
}
