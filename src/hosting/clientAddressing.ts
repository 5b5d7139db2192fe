/**
 * `createClientAddressing`: whom a legacy request counts against for `maxLegacySessionsPerClient`
 * (the `clientAddress` option, else the socket address, but never a proxy's address for every
 * client behind it), and the one warning that a proxy was seen without the option.
 */

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
  const at = (address: string | undefined): LegacyClient => (address === undefined ? {} : { clientAddress: address });
  return (request, socketAddress) => {
    if (option !== undefined) {
      const named = option(request, socketAddress);
      return at(typeof named === 'string' && named !== '' ? named : socketAddress);
    }
    const header = FORWARDING_HEADERS.find((name) => request.headers.has(name));
    if (header === undefined) return at(socketAddress);
    if (!warned) {
      warned = true;
      const message = proxyWarning(api, header, socketAddress);
      if (onerror === undefined) console.warn(`mcp-resolve: ${message}`);
      else onerror(new Error(message));
    }
    return socketAddress !== undefined && isProxyAddress(socketAddress) ? { behindProxy: true } : at(socketAddress);
  };
}

/** The warning of {@link createClientAddressing}, naming the header, the address it came from and the option. */
function proxyWarning(api: string, header: string, socketAddress: string | undefined): string {
  return (
    `${api}: a legacy request came with ${header} from ${socketAddress ?? 'an unknown address'} and no clientAddress ` +
    `option, so maxLegacySessionsPerClient cannot tell the clients behind a proxy apart. A session from a loopback ` +
    `or private address with a forwarding header counts against no client (maxLegacySessions and ` +
    `legacySessionBudgetBytes still bound it); one from any other address counts against that address. ` +
    `Set clientAddress to read the client's address from the header your proxy sets.`
  );
}

/**
 * Whether `address` is one a proxy in front of the server connects from: loopback (127.0.0.0/8,
 * ::1), private (10/8, 172.16/12, 192.168/16, fc00::/7) or link-local (169.254/16, fe80::/10),
 * also IPv4-mapped. A client on the open internet never has one.
 */
export function isProxyAddress(address: string): boolean {
  const bare = address
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(bare);
  if (v4 !== null) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (v4.slice(1).some((octet) => Number(octet) > 255)) return false;
    return (
      a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
    );
  }
  if (!/^[0-9a-f:]+$/.test(bare) || !bare.includes(':')) return false;
  if (bare === '::1') return true;
  const first = Number.parseInt(bare.startsWith('::') ? '0' : (bare.split(':')[0] ?? ''), 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}
