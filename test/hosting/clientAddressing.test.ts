/**
 * Behind a proxy: without `clientAddress`, a legacy session that comes with a forwarding header
 * from a loopback or private address (a proxy's) counts against no client, so one proxy's address
 * never puts every client behind it in one bucket of `maxLegacySessionsPerClient`, while the
 * fleet-wide count and byte budget still bound it. Forwarding headers are never read as an
 * address: from any other address they change nothing. The operator is told once.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

import type { AuthInfo } from '@modelcontextprotocol/server';

import { createMemorySessionHub } from '../../src/contracts/index.js';
import { isProxyAddress } from '../../src/hosting/clientAddressing.js';
import type { DualEraHandler, DualEraHttpOptions } from '../../src/hosting/index.js';
import { createDualEraHandler } from '../../src/hosting/index.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';
import type { Target } from '../../scripts/lib/wire.js';
import { openLegacySession, post } from '../../scripts/lib/wire.js';

const handlers: DualEraHandler[] = [];
afterAll(async () => {
  await Promise.all(handlers.map((handler) => handler.close()));
});
afterEach(() => {
  vi.restoreAllMocks();
});

function handlerWith(options: DualEraHttpOptions): DualEraHandler {
  const handler = createDualEraHandler(askNameServer, { legacySessionIdleMs: 60_000, ...options });
  handlers.push(handler);
  return handler;
}

/** Requests into `handler` from the socket address `socket`, with `headers` (forwarding ones, say). */
function from(
  handler: DualEraHandler,
  socket: string | undefined,
  headers: Record<string, string> = {},
  authInfo?: AuthInfo,
): Target {
  return {
    url: new URL('http://localhost/mcp'),
    headers: { host: 'localhost', ...headers },
    fetch: (request) =>
      handler.fetch(request, {
        ...(socket !== undefined && { clientAddress: socket }),
        ...(authInfo !== undefined && { authInfo }),
      }),
  };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** The statuses of `count` legacy `initialize` requests made one after another through `target`s. */
async function initializeStatuses(count: number, target: (index: number) => Target): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index++) {
    const response = await post(target(index), INITIALIZE);
    await response.body?.cancel();
    statuses.push(response.status);
  }
  return statuses;
}

const WARNING =
  'createDualEraHandler(): a legacy request came with X-Forwarded-For from 127.0.0.1 and no clientAddress option, ' +
  'so maxLegacySessionsPerClient cannot tell the anonymous clients behind a proxy apart. An anonymous session from ' +
  'a loopback or private address with a forwarding header counts against no client (maxLegacySessions and ' +
  'legacySessionBudgetHeldBytes still bound it); one from any other address counts against that address. Set ' +
  "clientAddress to read the client's address from the header your proxy sets.";

describe('the warning', () => {
  it('tells onerror once, naming the header, the address it came from and the clientAddress option', async () => {
    const reported: string[] = [];
    const handler = handlerWith({ onerror: (error) => reported.push(error.message) });
    await openLegacySession(from(handler, '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' }));
    await openLegacySession(from(handler, '10.0.0.3', { 'x-real-ip': '198.51.100.8' }));
    expect(reported.filter((message) => message.includes('clientAddress'))).toEqual([WARNING]);
  });

  it('goes to console.warn when there is no onerror', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const handler = handlerWith({});
    await openLegacySession(from(handler, '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' }));
    await openLegacySession(from(handler, '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' }));
    expect(warn.mock.calls).toEqual([[`mcp-resolve: ${WARNING}`]]);
  });

  it('changes no response when onerror throws', async () => {
    const handler = handlerWith({
      onerror: () => {
        throw new Error('broken logger');
      },
    });
    await expect(openLegacySession(from(handler, '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' }))).resolves.toEqual(
      expect.any(String),
    );
  });

  it('names the first forwarding header it finds, and the address from anywhere', async () => {
    const reported: string[] = [];
    const handler = handlerWith({ onerror: (error) => reported.push(error.message) });
    await openLegacySession(from(handler, '203.0.113.9', { forwarded: 'for=198.51.100.7', 'x-real-ip': '1.2.3.4' }));
    expect(reported.filter((message) => message.includes('clientAddress'))).toEqual([
      expect.stringMatching(/^createDualEraHandler\(\): a legacy request came with Forwarded from 203\.0\.113\.9 and/),
    ]);
  });

  it('says nothing without a forwarding header, or with the clientAddress option', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await openLegacySession(from(handlerWith({}), '127.0.0.1'));
    const named = handlerWith({ clientAddress: (request) => request.headers.get('x-real-ip') });
    await openLegacySession(from(named, '127.0.0.1', { 'x-real-ip': '198.51.100.7' }));
    expect(warn).not.toHaveBeenCalled();
  });

  it('says nothing about 2026-07-28 traffic, which holds no session', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const handler = handlerWith({});
    const response = await post(
      from(handler, '127.0.0.1', { 'x-forwarded-for': '198.51.100.7', 'mcp-protocol-version': '2026-07-28' }),
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} },
    );
    await response.body?.cancel();
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('whom a session counts against without clientAddress', () => {
  it('behind a proxy (a forwarding header from a loopback or private address): no client; the count still bounds it', async () => {
    const handler = handlerWith({ maxLegacySessionsPerClient: 1, maxLegacySessions: 4, onerror: () => {} });
    const proxies = ['127.0.0.1', '10.1.2.3', '::ffff:192.168.0.9', 'fd00::5'];
    const statuses = await initializeStatuses(5, (index) =>
      from(handler, proxies[index % proxies.length], { 'x-forwarded-for': `198.51.100.${index}` }),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 503]);
  });

  it('from any other address: that address, whatever forwarding headers a client forges', async () => {
    const handler = handlerWith({ maxLegacySessionsPerClient: 2, onerror: () => {} });
    const forged = (index: number): Record<string, string> => ({
      'x-forwarded-for': `127.0.0.${index}, 10.0.0.${index}`,
      'x-real-ip': `192.168.0.${index}`,
      forwarded: `for=10.0.0.${index}`,
    });
    expect(await initializeStatuses(3, (index) => from(handler, '203.0.113.7', forged(index)))).toEqual([
      200, 200, 429,
    ]);
    expect(await initializeStatuses(1, () => from(handler, '203.0.113.8', forged(9)))).toEqual([200]);
  });

  it('a loopback or private address without a forwarding header: that address, as before', async () => {
    const handler = handlerWith({ maxLegacySessionsPerClient: 1 });
    expect(await initializeStatuses(2, () => from(handler, '127.0.0.1'))).toEqual([200, 429]);
  });

  it('an authenticated client behind a proxy: its principal', async () => {
    const handler = handlerWith({ maxLegacySessionsPerClient: 1, onerror: () => {} });
    const alice: AuthInfo = { token: 't1', clientId: 'alice', scopes: [] };
    const viaProxy = () => from(handler, '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' }, alice);
    expect(await initializeStatuses(2, viaProxy)).toEqual([200, 429]);
  });

  it('malformed forwarding headers: the same decision, no failure', async () => {
    const handler = handlerWith({ maxLegacySessionsPerClient: 1, onerror: () => {} });
    const malformed: Record<string, string>[] = [
      { forwarded: 'for="[::1' },
      { 'x-forwarded-for': ' ,,, ;;; ' },
      { 'x-real-ip': 'x'.repeat(8_000) },
      { 'x-forwarded-for': '999.999.999.999, ::ffff:zz' },
      { forwarded: '' },
    ];
    expect(await initializeStatuses(5, (index) => from(handler, '127.0.0.1', malformed[index]))).toEqual([
      200, 200, 200, 200, 200,
    ]);
    expect(await initializeStatuses(2, (index) => from(handler, '198.51.100.1', malformed[index]))).toEqual([200, 429]);
  });

  it('across a fleet: behind a proxy no client, and the fleet-wide count still bounds it', async () => {
    const hub = createMemorySessionHub();
    const options = { maxLegacySessionsPerClient: 1, maxLegacySessions: 3, onerror: () => {} };
    const members = [
      handlerWith({ ...options, sessionFleet: hub.member('a') }),
      handlerWith({ ...options, sessionFleet: hub.member('b') }),
    ];
    const statuses = await initializeStatuses(4, (index) =>
      from(members[index % 2]!, '127.0.0.1', { 'x-real-ip': `198.51.100.${index}` }),
    );
    expect(statuses).toEqual([200, 200, 200, 503]);
  });
});

describe('the clientAddress option', () => {
  it('is given the socket address, and its answer wins', async () => {
    const seen: (string | undefined)[] = [];
    const handler = handlerWith({
      maxLegacySessionsPerClient: 1,
      clientAddress: (request, socketAddress) => {
        seen.push(socketAddress);
        return socketAddress === '127.0.0.1' ? request.headers.get('x-real-ip') : socketAddress;
      },
    });
    const viaProxy = (client: string) => from(handler, '127.0.0.1', { 'x-real-ip': client });
    expect(
      await initializeStatuses(3, (index) => viaProxy(['198.51.100.1', '198.51.100.2', '198.51.100.1'][index]!)),
    ).toEqual([200, 200, 429]);
    // Straight to the server, the header is not read: the socket address counts.
    const direct = () => from(handler, '203.0.113.7', { 'x-real-ip': crypto.randomUUID() });
    expect(await initializeStatuses(2, direct)).toEqual([200, 429]);
    expect(seen).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1', '203.0.113.7', '203.0.113.7']);
  });

  it('answering null or an empty string: the socket address counts, even behind a proxy', async () => {
    const handler = handlerWith({ maxLegacySessionsPerClient: 1, clientAddress: () => null });
    expect(
      await initializeStatuses(2, () => from(handler, '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' })),
    ).toEqual([200, 429]);
    const empty = handlerWith({ maxLegacySessionsPerClient: 1, clientAddress: () => '' });
    expect(await initializeStatuses(2, () => from(empty, '127.0.0.1', { 'x-real-ip': '198.51.100.7' }))).toEqual([
      200, 429,
    ]);
  });
});

describe('isProxyAddress', () => {
  const proxies = ['127.0.0.1', '127.255.0.9', '::1', '[::1]', '::ffff:127.0.0.1', '10.0.0.1', '172.16.0.1'];
  const more = [
    '172.31.255.255',
    '192.168.1.1',
    '169.254.0.1',
    'fd12:3456::1',
    'fc00::1',
    'fe80::1%eth0',
    ' 10.0.0.1 ',
  ];
  const clients = ['203.0.113.7', '8.8.8.8', '172.15.0.1', '172.32.0.1', '192.169.0.1', '11.0.0.1', '::ffff:8.8.8.8'];
  const others = ['2001:db8::1', '::', '127.0.0.256', '999.1.1.1', 'localhost', '', 'fe80', 'not an address'];
  const cases = [
    ...[...proxies, ...more].map((address) => [address, true] as const),
    ...[...clients, ...others].map((address) => [address, false] as const),
  ];

  it.each(cases)('%j is a proxy address: %s', (address, expected) => {
    expect(isProxyAddress(address)).toBe(expected);
  });
});
