/**
 * The client an HTTP request comes from, as its host decided it (the address its per-client
 * bounds count against, or none behind a proxy it cannot see past), kept beside the request so a
 * channel can bound what one anonymous client holds (pages per client). The host remembers it for
 * each MCP request; a channel reads it from the request the SDK hands the round (`ctx.http.req`).
 */

/** Whom a request counts against when it carries no principal. */
export type RequestClient =
  /** An address (IPv4, or an IPv6 /64 network), as the host buckets it. */
  | { readonly address: string }
  /** Behind a proxy the host cannot see past: every client shares the proxy's address, so none. */
  | { readonly behindProxy: true };

const clients = new WeakMap<Request, RequestClient>();

/** Remembers whom `request` counts against (the host, once per MCP request). */
export function rememberRequestClient(request: Request, client: RequestClient): void {
  clients.set(request, client);
}

/** Whom `request` counts against, when its host said; `undefined` in process or on a host that did not. */
export function requestClientOf(request: Request | undefined): RequestClient | undefined {
  return request === undefined ? undefined : clients.get(request);
}
