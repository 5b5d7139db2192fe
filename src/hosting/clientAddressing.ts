/**
 * `createClientAddressing`: whom a legacy request counts against for `maxLegacySessionsPerClient`
 * (the `clientAddress` option, else the socket address, but never a proxy's address for every
 * client behind it), and the one warning that a proxy was seen without the option.
 */
import { isProxyAddress } from './addresses.js';

/** `clientAddress` of the HTTP options: the client's address read from the request, or nothing to use the socket's. */
export type ClientAddressOption = (request: Request, socketAddress: string | undefined) => string | null | undefined;

/** The headers a proxy names its client in. Only their presence is read, never their value. */
const FORWARDING_HEADERS = ['Forwarded', 'X-Forwarded-For', 'X-Real-IP'] as const;

/** Whom a legacy request's new session counts against: an address, or no client (`behindProxy`). */
export interface LegacyClient {
  /** The address the session counts against, when known. */
  readonly clientAddress?: string;
  /** The request came through a proxy the server cannot see past: the session counts against no client. */
  readonly behindProxy?: true;
}

/**
 * Decides {@link LegacyClient} per request. With `option`, its answer (else the socket address);
 * without it, the socket address, unless the request carries a forwarding header from a loopback
 * or private address (a proxy's): then no client, since the proxy's address is every client's.
 * The first request with a forwarding header and no `option` gets one warning, through `onerror`
 * when given, else `console.warn`.
 */
export function createClientAddressing(
  option: ClientAddressOption | undefined,
  api: string,
  onerror: ((error: Error) => void) | undefined,
): (request: Request, socketAddress: string | undefined) => LegacyClient {
  let warned = false;
  return (request, socketAddress) => {
    const header = option === undefined ? FORWARDING_HEADERS.find((name) => request.headers.has(name)) : undefined;
    if (header !== undefined && !warned) {
      warned = true;
      const message = proxyWarning(api, header, socketAddress);
      if (onerror === undefined) console.warn(`mcp-resolve: ${message}`);
      else onerror(new Error(message));
    }
    return clientOfRequest(option, request, socketAddress);
  };
}

/** {@link createClientAddressing}'s decision for one request, without the warning. */
export function clientOfRequest(
  option: ClientAddressOption | undefined,
  request: Request,
  socketAddress: string | undefined,
): LegacyClient {
  const at = (address: string | undefined): LegacyClient => (address === undefined ? {} : { clientAddress: address });
  if (option !== undefined) {
    const named = option(request, socketAddress);
    return at(typeof named === 'string' && named !== '' ? named : socketAddress);
  }
  if (!FORWARDING_HEADERS.some((name) => request.headers.has(name))) return at(socketAddress);
  return socketAddress !== undefined && isProxyAddress(socketAddress) ? { behindProxy: true } : at(socketAddress);
}

/** The warning of {@link createClientAddressing}, naming the header, the address it came from and the option. */
function proxyWarning(api: string, header: string, socketAddress: string | undefined): string {
  return (
    `${api}: a legacy request came with ${header} from ${socketAddress ?? 'an unknown address'} and no ` +
    `clientAddress option, so maxLegacySessionsPerClient cannot tell the anonymous clients behind a proxy apart. ` +
    `An anonymous session from a loopback or private address with a forwarding header counts against no client ` +
    `(maxLegacySessions and legacySessionBudgetHeldBytes still bound it); one from any other address counts against ` +
    `that address. Set clientAddress to read the client's address from the header your proxy sets.`
  );
}
