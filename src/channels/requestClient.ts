/**
 * The client an HTTP request comes from, as its host decided it (the address its per-client
 * bounds count against, or none behind a proxy it cannot see past), carried by the request itself
 * (a {@link ClientRequest}) so a channel can bound what one anonymous client holds (pages per
 * client). The host builds one for each anonymous MCP request; a channel reads it from the request
 * the SDK hands the round (`ctx.http.req`).
 */

/** Whom a request counts against when it carries no principal. */
export type RequestClient =
  /** An address (IPv4, or an IPv6 /64 network), as the host buckets it. */
  | { readonly address: string }
  /** Behind a proxy the host cannot see past: every client shares the proxy's address, so none. */
  | { readonly behindProxy: true };

/**
 * A body-less copy of a request the host has read (its body handed on parsed), carrying whom it
 * counts against. Built from the request's parts, not from the request (a copy of a `Request`
 * follows its signal, which costs several times the rest of its construction): it follows
 * `signal` only when one is given.
 */
export class ClientRequest extends Request {
  constructor(
    request: Request,
    readonly client: RequestClient | undefined,
    signal: AbortSignal | undefined,
  ) {
    super(request.url, {
      method: request.method,
      headers: request.headers,
      ...(signal !== undefined && { signal }),
    });
  }
}

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

/** Whom `request` counts against, when its host said (a {@link ClientRequest}); `undefined` in process or on a host that did not. */
export function requestClientOf(request: Request | undefined): RequestClient | undefined {
  return request instanceof ClientRequest ? request.client : undefined;
}
