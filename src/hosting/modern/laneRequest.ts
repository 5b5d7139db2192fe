/**
 * Which modern requests the modern lane serves: a single, well-formed 2026-07-28 request of a
 * method the lane carries, whose standard headers agree with its body. For such a request the
 * SDK's hosting would pass every rung of its validation ladder before dispatch (classification, the
 * standard-header check, the required-capability check); anything else (a mismatch, a missing
 * header, an encoded `Mcp-Name`, a method with a hosting step of its own such as `server/discover`
 * or `subscriptions/listen`, extra members) goes to the SDK's hosting, which answers it its own way.
 * The envelope itself is validated once, by the instance, when the request is dispatched.
 */
import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { MODERN_REVISION } from '../../era.js';

/** The methods the lane carries, with the body field the `Mcp-Name` header must mirror. */
const LANE_METHODS: ReadonlyMap<string, 'name' | 'uri' | undefined> = new Map([
  ['tools/call', 'name'],
  ['tools/list', undefined],
  ['prompts/get', 'name'],
  ['prompts/list', undefined],
  ['resources/read', 'uri'],
  ['resources/list', undefined],
  ['resources/templates/list', undefined],
  ['completion/complete', undefined],
]);

/** The prefix of an encoded `Mcp-Name` value (left to the SDK, which decodes it). */
const ENCODED_VALUE = '=?base64?';

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A header's value without the optional whitespace HTTP allows around it. */
function headerValue(headers: Headers, name: string): string | undefined {
  return headers.get(name)?.replace(/^[\t ]+|[\t ]+$/g, '');
}

/** Whether `value` is a JSON-RPC id: a string or a safe integer. */
const isRequestId = (value: unknown): boolean => typeof value === 'string' || Number.isSafeInteger(value);

/** `body` as the request the lane serves, or `undefined` when the SDK's hosting must take it (see the module comment). */
export function laneRequest(headers: Headers, body: unknown): JSONRPCRequest | undefined {
  if (!isJsonObject(body) || body.jsonrpc !== '2.0' || !isRequestId(body.id)) return undefined;
  const { method, params } = body;
  if (typeof method !== 'string' || !LANE_METHODS.has(method) || !isJsonObject(params)) return undefined;
  if (Object.keys(body).length !== 4) return undefined;
  const meta = params._meta;
  if (!isJsonObject(meta)) return undefined;
  const revision = meta[PROTOCOL_VERSION_META_KEY];
  if (revision !== MODERN_REVISION) return undefined;
  if ('progressToken' in meta && !isRequestId(meta.progressToken)) return undefined;
  if (headerValue(headers, 'mcp-protocol-version') !== MODERN_REVISION) return undefined;
  if (headerValue(headers, 'mcp-method') !== method) return undefined;
  const field = LANE_METHODS.get(method);
  if (field !== undefined) {
    const value = params[field];
    if (typeof value !== 'string' || value.startsWith(ENCODED_VALUE)) return undefined;
    if (headerValue(headers, 'mcp-name') !== value) return undefined;
  }
  return body as unknown as JSONRPCRequest;
}
