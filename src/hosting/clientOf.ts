/** `clientOf`, `addressBucket` and `countedClient`: the client a new legacy session, or a channel route's hold, counts against. */
import type { McpHandlerRequestOptions } from '@modelcontextprotocol/server';

import type { RequestClient } from '../channels/requestClient.js';
import { principalFrom } from '../state/binding.js';
import { bareAddress } from './addresses.js';
import type { LegacyClient } from './clientAddressing.js';
import { toHex } from '../state/bytes.js';

/** What {@link clientOf} reads of a request's options: its `authInfo`, and the client's address or proxy. */
export interface ClientRequestOptions extends Pick<McpHandlerRequestOptions, 'authInfo'>, LegacyClient {}

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
export function addressBucket(address: string): string {
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
