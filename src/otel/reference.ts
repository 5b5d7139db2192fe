/**
 * A SERVER span's name and attributes as the reference SDK sets them (Python `mcp` 2.3.0,
 * `mcp/server/_otel.py`, `OpenTelemetryMiddleware`): the name is the method, then `params.name`
 * when the request has one; `jsonrpc.request.id` is a string; `tools/call` adds
 * `gen_ai.operation.name` = `execute_tool` and `gen_ai.tool.name`, `prompts/get` adds
 * `gen_ai.prompt.name`; a JSON-RPC error sets `error.type` and `rpc.response.status_code` to the
 * code as a string.
 */
import type { Attributes } from '@opentelemetry/api';

/** What the reference attributes are made of. */
export interface ServerSpanFacts {
  readonly method: string;
  /** `params.name` (a tool or prompt name), when the request has one. */
  readonly name: string | undefined;
  /** `undefined` for a notification. */
  readonly requestId: string | number | undefined;
  readonly protocolVersion: string | undefined;
}

/** `{method}` or `{method} {params.name}`. */
export function serverSpanName(facts: ServerSpanFacts): string {
  return facts.name === undefined ? facts.method : `${facts.method} ${facts.name}`;
}

/** The reference SDK's SERVER span attributes for `facts`. */
export function referenceAttributes(facts: ServerSpanFacts): Attributes {
  const attributes: Attributes = { 'mcp.method.name': facts.method };
  if (facts.protocolVersion !== undefined) attributes['mcp.protocol.version'] = facts.protocolVersion;
  if (facts.requestId !== undefined) attributes['jsonrpc.request.id'] = String(facts.requestId);
  if (facts.method === 'tools/call') {
    attributes['gen_ai.operation.name'] = 'execute_tool';
    if (facts.name !== undefined) attributes['gen_ai.tool.name'] = facts.name;
  } else if (facts.method === 'prompts/get' && facts.name !== undefined) {
    attributes['gen_ai.prompt.name'] = facts.name;
  }
  return attributes;
}

/** The attributes of a request that ended with JSON-RPC error `code`. */
export function rpcErrorAttributes(code: number): Attributes {
  return { 'error.type': String(code), 'rpc.response.status_code': String(code) };
}
