/**
 * What the hosting answers a request with: a Web `Response`, or a JSON reply still as text, which a
 * Node host writes to its socket as it is (no `Response` built and read back) and any other host
 * turns into a `Response` with {@link toResponse}.
 */

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
