/** The one rule deciding whether a modern (2026-07-28) POST is served on the modern lane or by the SDK's own hosting. */
import type { AuthInfo, JSONRPCRequest, McpServer } from '@modelcontextprotocol/server';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { MODERN_REVISION } from '../../protocol.js';

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
/** The header a tool's input schema declares a mirrored parameter with (SEP-2243). */
const MIRRORED_PARAMETER = 'x-mcp-header';

/** The lane's instance, as the rule reads it. */
export interface LaneInstance {
  readonly instance: McpServer;
  /** Per tool name, whether its input schema mirrors parameters in headers (filled by the rule; registered tools only). */
  readonly mirrors: Map<string, boolean>;
}

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A header's value without the optional whitespace HTTP allows around it. */
function headerValue(headers: Headers, name: string): string | undefined {
  return headers.get(name)?.replace(/^[\t ]+|[\t ]+$/g, '');
}

/** Whether `value` is a JSON-RPC id: a string or a safe integer. */
const isRequestId = (value: unknown): boolean => typeof value === 'string' || Number.isSafeInteger(value);

/**
 * `body` as the request the lane serves on `lane`, or `undefined` when the SDK's own hosting
 * (`createMcpHandler`, a fresh instance) must take it. The rule: the lane serves a request exactly
 * when the SDK's hosting would dispatch it straight to the instance's handler, with nothing of its
 * own to do first. That is:
 *
 * 1. a single, well-formed 2026-07-28 JSON-RPC request (no batch, no notification, no member beside
 *    the four, an integer or string id, an object `params` with the envelope naming the revision);
 * 2. of a method the lane carries (`tools/call`, `tools/list`, `prompts/get`, `prompts/list`,
 *    `resources/read`, `resources/list`, `resources/templates/list`, `completion/complete`): not
 *    one with a hosting step of its own (`server/discover`, `subscriptions/listen`);
 * 3. whose standard headers agree with its body (`MCP-Protocol-Version`, `Mcp-Method`, and a plain,
 *    not encoded, `Mcp-Name` naming its tool, prompt or resource), so the SDK's header check passes;
 * 4. not a call of a tool that declares `x-mcp-header` parameters (the SDK validates their headers);
 * 5. not one a scope challenge stops (the SDK answers that with its 403).
 *
 * Past this rule one case alone is not known before the instance sees the request: one the instance
 * answers, or reports as unreadable, while it is being delivered, before any handler runs (method
 * not found, an invalid envelope, a `_meta` its request schema refuses): the lane's transport hands
 * it back (`ExchangeMux.serve` answers `undefined`) and the SDK's hosting answers it, word for word.
 * The envelope itself is validated once, by the instance.
 */
export function laneRequest(
  lane: LaneInstance,
  headers: Headers,
  body: unknown,
  authInfo: AuthInfo | undefined,
): JSONRPCRequest | undefined | Promise<JSONRPCRequest | undefined> {
  const message = wellFormed(headers, body);
  if (message === undefined || mirrorsParameters(lane, message)) return undefined;
  const challenge = lane.instance.resolveScopeChallenge(
    authInfo === undefined ? { request: message } : { request: message, authInfo },
  );
  if (challenge instanceof Promise) return challenge.then((found) => (found === undefined ? message : undefined));
  return challenge === undefined ? message : undefined;
}

/** Clauses 1 to 3 of {@link laneRequest}'s rule, which read the request alone. */
function wellFormed(headers: Headers, body: unknown): JSONRPCRequest | undefined {
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

/** Clause 4 of {@link laneRequest}'s rule: whether `message` calls a tool whose input schema mirrors parameters in headers. */
function mirrorsParameters(lane: LaneInstance, message: JSONRPCRequest): boolean {
  if (message.method !== 'tools/call') return false;
  const name = message.params?.name as string;
  let known = lane.mirrors.get(name);
  if (known === undefined) {
    const schema = lane.instance.toolInputSchemaJson(name);
    if (schema === undefined) return false;
    known = JSON.stringify(schema).includes(MIRRORED_PARAMETER);
    lane.mirrors.set(name, known);
  }
  return known;
}
