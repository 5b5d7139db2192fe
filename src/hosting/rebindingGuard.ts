/**
 * The DNS-rebinding guard of the HTTP hosts: a malformed `Host` header is a bad request (400), then
 * the `Host` header against `allowedHosts`, then the `Origin` header against `allowedOrigins`,
 * through the SDK's own validators. A refusal is reported through `onerror`, and the first refusal
 * of each name is logged on stderr naming the option to set.
 */
import { hostHeaderValidationResponse, originValidationResponse } from '@modelcontextprotocol/server';

import { jsonRpcErrorResponse } from './jsonRpcError.js';

/** How many distinct refused names are remembered so each is logged once. */
const LOGGED_NAMES_CAP = 100;

/** Checks one request; a `Response` (400 or 403) when it must be refused. */
export type RebindingGuard = (request: Request) => Response | undefined;

/** The one stderr line for a refused `Host` or `Origin` (`null`: the request has none), naming the option that admits it. */
export function refusedNameLine(header: 'Host' | 'Origin', value: string | null, allowed: readonly string[]): string {
  const option = header === 'Host' ? 'allowedHosts' : 'allowedOrigins';
  if (value === null) {
    return (
      `mcp-resolve: refused a request without a ${header} header (403). HTTP clients always send one; ` +
      `code that calls the fetch handler itself must set it to a name in ${option} [${allowed.join(', ')}].`
    );
  }
  const name = hostnameOf(header === 'Host' ? `http://${value}` : value);
  return (
    `mcp-resolve: refused a request with ${header} '${value}' (403): not in ${option} ` +
    `[${allowed.join(', ')}]. If clients reach this server by that name, pass ${option}: ['${name}'] ` +
    `to serveHttp() or createDualEraHandler().`
  );
}

/** Characters a `Host` header may hold: a DNS name or IPv4 address, a bracketed IPv6 address, a port. */
const HOST_CHARACTERS = /^[A-Za-z0-9.-]+(:[0-9]*)?$|^\[[0-9A-Fa-f:.]+\](:[0-9]*)?$/;

/**
 * Whether `value` is not a well-formed `Host` header (RFC 9110, section 7.2: `host [ ":" port ]`): userinfo,
 * spaces, a port above 65535, an unclosed IPv6 bracket. Such a request is answered 400 before anything
 * parses its URL (which would otherwise fail as a server error).
 */
export function isMalformedHost(value: string): boolean {
  if (!HOST_CHARACTERS.test(value)) return true;
  try {
    new URL(`http://${value}/`);
    return false;
  } catch {
    return true;
  }
}

const MALFORMED_HOST = 'Bad Request: malformed Host header';

/** The JSON body of the 400 a request with a malformed `Host` header gets (for hosts that write it themselves). */
export const MALFORMED_HOST_BODY = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32600, message: MALFORMED_HOST },
  id: null,
});

/** The 400 a request with a malformed `Host` header gets. */
export function malformedHostResponse(): Response {
  return jsonRpcErrorResponse(400, -32600, MALFORMED_HOST);
}

/** The hostname of `url` as the allow-lists spell it (IPv6 in brackets), or `url` itself when it does not parse. */
function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** Distinct accepted `Host` values remembered at most. */
const ACCEPTED_HOSTS_CAP = 64;

/** Builds the guard; `log` receives each refused name's first line. */
export function createRebindingGuard(
  allowedHosts: string[],
  allowedOrigins: string[],
  report: (error: Error) => void,
  log: (line: string) => void = (line) => console.warn(line),
): RebindingGuard {
  const logged = new Set<string>();
  const refuse = (header: 'Host' | 'Origin', value: string | null, allowed: readonly string[]): void => {
    const line = refusedNameLine(header, value, allowed);
    report(new Error(line));
    if (logged.has(`${header} ${value}`) || logged.size >= LOGGED_NAMES_CAP) return;
    logged.add(`${header} ${value}`);
    log(line);
  };
  // Host values that passed, so a client's every request is not parsed again (bounded: ports vary).
  const accepted = new Set<string>();
  return (request) => {
    const value = request.headers.get('host');
    if (value === null || !accepted.has(value)) {
      if (value !== null && isMalformedHost(value)) {
        report(new Error(`Rejected request: malformed Host header (400)`));
        return malformedHostResponse();
      }
      const host = hostHeaderValidationResponse(request, allowedHosts);
      if (host !== undefined) {
        refuse('Host', value, allowedHosts);
        return host;
      }
      if (value !== null && accepted.size < ACCEPTED_HOSTS_CAP) accepted.add(value);
    }
    const origin = originValidationResponse(request, allowedOrigins);
    if (origin !== undefined) refuse('Origin', request.headers.get('origin'), allowedOrigins);
    return origin;
  };
}

/**
 * The guard of a channel route's request. A browser posts a route's form with `Origin: null` (when
 * served with Referrer-Policy no-referrer): routes keep the Host check (and the Origin check of any
 * other Origin) and rely on their own form protection for the rest.
 */
export function browserGuard(guard: RebindingGuard, request: Request): Response | undefined {
  if (request.headers.get('origin') !== 'null') return guard(request);
  const headers = new Headers(request.headers);
  headers.delete('origin');
  return guard(new Request(request.url, { headers }));
}
