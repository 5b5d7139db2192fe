/**
 * Whom a request counts against: the client's address as the HTTP hosting reads it (the
 * `clientAddress` option, else the socket address, but never a proxy's address for every client
 * behind it, with one warning that a proxy was seen without the option), and the client that
 * address, or the request's principal, makes for a new legacy session (`clientOf`,
 * `maxLegacySessionsPerClient`) or a channel route's hold (`countedClient`).
 */
import type { McpHandlerRequestOptions } from '@modelcontextprotocol/server';

import type { RequestClient } from '../channels/requestClient.js';
import { principalFrom } from '../state/binding.js';
import { toHex } from '../state/bytes.js';

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

/** What {@link clientOf} reads of a request's options: its `authInfo`, and the client's address or proxy. */
interface ClientRequestOptions extends Pick<McpHandlerRequestOptions, 'authInfo'>, LegacyClient {}

/**
 * The opaque id of the client a new session counts against: a hash of its principal when the
 * request is authenticated; else none when it came through a proxy the server cannot see past
 * (`behindProxy`: the proxy's address is every client's); else a hash of its remote address (an
 * IPv6 address by its /64 network), else of one bucket shared by every anonymous client without one.
 */
export async function clientOf(requestOptions: ClientRequestOptions): Promise<string | undefined> {
  const principal = principalFrom(requestOptions.authInfo);
  if (principal === undefined && requestOptions.behindProxy === true) return undefined;
  const address = requestOptions.clientAddress;
  const name =
    principal !== undefined
      ? `principal:${principal}`
      : address !== undefined && address !== ''
        ? `address:${addressBucket(address)}`
        : 'unknown';
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(name));
  return toHex(new Uint8Array(digest, 0, 16));
}

/** An IPv4 address as it is (also when IPv4-mapped); an IPv6 address by its first four groups (its /64 network). */
function addressBucket(address: string): string {
  const bare = bareAddress(address);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped !== null) return mapped[1] ?? bare;
  if (!bare.includes(':')) return bare;
  const [head = '', tail = ''] = bare.split('::', 2);
  const left = head === '' ? [] : head.split(':');
  const right = bare.includes('::') && tail !== '' ? tail.split(':') : [];
  const groups = bare.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Whom a request for the channel routes' server counts against (a {@link RequestClient}), as its host decided `client`. */
export function countedClient(client: LegacyClient | undefined): RequestClient | undefined {
  if (client?.behindProxy === true) return { behindProxy: true };
  return client?.clientAddress === undefined ? undefined : { address: addressBucket(client.clientAddress) };
}

/** `address` without surrounding spaces, IPv6 brackets and zone (`%eth0`), in lower case. */
function bareAddress(address: string): string {
  return address
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
}

/**
 * Whether `address` is one a proxy in front of the server connects from: loopback (127.0.0.0/8,
 * ::1), private (10/8, 172.16/12, 192.168/16, fc00::/7) or link-local (169.254/16, fe80::/10),
 * also IPv4-mapped. A client on the open internet never has one.
 */
export function isProxyAddress(address: string): boolean {
  const bare = bareAddress(address);
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
