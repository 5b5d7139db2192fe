/**
 * JSON-RPC error responses for requests the hosting layer answers itself (before any server
 * instance sees them), in the same shape the SDK's transports use: `id: null`, JSON body.
 */

/** Builds a JSON-RPC error `Response` carrying `id: null`, as the SDK's HTTP transports do. */
export function jsonRpcErrorResponse(
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code, message }, id: null },
    { status, headers: { 'Content-Type': 'application/json', ...headers } },
  );
}
