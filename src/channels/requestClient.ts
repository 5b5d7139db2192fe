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

/**
 * Whom the answers of a request acting for `principal` count against (a question's attempts): the
 * principal; else the address its host saw `request` come from; else nobody (in process, behind a
 * proxy the host cannot see past): one budget shared by every anonymous client would let one of
 * them close a question for all, so such answers are bounded per call only.
 */
export function answeringPerson(principal: string | undefined, request: Request | undefined): string | undefined {
  if (principal !== undefined) return `principal:${principal}`;
  const client = requestClientOf(request);
  return client !== undefined && 'address' in client ? `address:${client.address}` : undefined;
}

/** Remembers whom `request` counts against (the host, once per MCP request). */
export function rememberRequestClient(request: Request, client: RequestClient): void {
  clients.set(request, client);
}

/** Whom `request` counts against, when its host said; `undefined` in process or on a host that did not. */
export function requestClientOf(request: Request | undefined): RequestClient | undefined {
  return request === undefined ? undefined : clients.get(request);
}
