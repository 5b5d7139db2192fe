/**
 * A POST to the MCP path as the hosting meets it: read once (its body bounded, as JSON; its path),
 * handed on as a {@link HostedPost} with the request its handlers see, and answered with a
 * {@link Reply}: a Web `Response`, or a JSON reply still as text, which a Node host writes to its
 * socket as it is (no `Response` built and read back) and any other host turns into a `Response`
 * with {@link toResponse}.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { readRequestBody } from '@modelcontextprotocol/server';

import type { RequestClient } from '../channels/requestClient.js';
import { ClientRequest } from '../channels/requestClient.js';
import { jsonRpcErrorResponse } from './jsonRpcError.js';

/** A POST body read as JSON, or the response refusing it. */
export type JsonBody = { ok: true; body: unknown } | { ok: false; response: Response };

/** Reads and parses a POST body once; a body too large or not JSON yields the 413 / 400 answer instead. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  let text: string;
  try {
    const read = await readRequestBody(request, maxBytes);
    if (read.tooLarge) {
      const message = `Payload Too Large: the request body exceeds ${maxBytes} bytes`;
      return { ok: false, response: jsonRpcErrorResponse(413, -32000, message) };
    }
    text = read.text;
  } catch {
    return {
      ok: false,
      response: jsonRpcErrorResponse(400, -32700, 'Parse error: the request body could not be read'),
    };
  }
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, response: jsonRpcErrorResponse(400, -32700, 'Parse error: Invalid JSON') };
  }
}

/** The path of a `Request`'s URL, which the `Request` has already parsed and serialized (so no second parse). */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const end = url.slice(start).search(/[?#]/);
  return end === -1 ? url.slice(start) : url.slice(start, start + end);
}

/** A POST the hosting has read: the request, its parsed body, who sent it and how it learns the client left. */
export interface HostedPost {
  readonly request: Request;
  readonly parsedBody: unknown;
  readonly authInfo: AuthInfo | undefined;
  /**
   * Aborts when the client leaves, when the host hands that over apart from a body-less `request`
   * (see `ServeOptions`); `undefined`: `request.signal` says it.
   */
  readonly clientLeft: AbortSignal | undefined;
  /** Whom an anonymous request counts against, when its host could say. */
  readonly client: RequestClient | undefined;
}

/**
 * The request `post`'s handlers see (`ctx.http.req`): `post.request` itself when there is nothing
 * to add, else a {@link ClientRequest} carrying `post.client` and following the client's leaving:
 * `clientLeft` when `follow` (a handler whose hosting watches only the request's signal), nothing
 * when not (the modern lane watches `clientLeft` itself), the request's own signal when the host
 * gave no `clientLeft`.
 */
export function handedRequest(post: HostedPost, follow: boolean): Request {
  const { request, clientLeft, client } = post;
  if (client === undefined && (clientLeft === undefined || !follow)) return request;
  return new ClientRequest(
    request,
    client,
    clientLeft === undefined ? request.signal : follow ? clientLeft : undefined,
  );
}

/** A JSON-RPC reply as its status and serialized body (`Content-Type: application/json`). */
export class JsonReply {
  /** Headers beyond the content type (the fleet's instance header). */
  readonly headers: Record<string, string> = { 'Content-Type': 'application/json' };

  constructor(
    readonly status: number,
    readonly body: string,
  ) {}
}

/** A hosting's answer: a `Response`, or a {@link JsonReply}. */
export type Reply = Response | JsonReply;

/** `reply` as a Web `Response`. */
export function toResponse(reply: Reply): Response {
  return reply instanceof JsonReply
    ? new Response(reply.body, { status: reply.status, headers: reply.headers })
    : reply;
}

/** `reply` with one more header (a copy of a `Response` whose headers are immutable). */
export function withHeader(reply: Reply, name: string, value: string): Reply {
  if (reply instanceof JsonReply) {
    reply.headers[name] = value;
    return reply;
  }
  try {
    reply.headers.set(name, value);
    return reply;
  } catch {
    const headers = new Headers(reply.headers);
    headers.set(name, value);
    return new Response(reply.body, { status: reply.status, statusText: reply.statusText, headers });
  }
}
