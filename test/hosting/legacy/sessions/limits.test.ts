/**
 * What a legacy client can make the server hold is bounded: declared capabilities, the initialize
 * params a session keeps, their total, and the sessions one client holds — on one instance and,
 * through the shared store, across a fleet.
 */
import { afterAll, describe, expect, it } from 'vitest';

import type { AuthInfo } from '@modelcontextprotocol/server';

import { createMemorySessionHub } from '../../../../src/contracts/index.js';
import { heldBytes } from '../../../../src/state/heldBytes.js';
import type { DualEraHandler, DualEraHttpOptions } from '../../../../src/hosting/index.js';
import { createDualEraHandler } from '../../../../src/hosting/index.js';
import { serveHttp } from '../../../../src/node/index.js';
import { askNameServer } from '../../../testing/fixtures/askNameServer.js';
import type { Target } from '../../../../scripts/lib/wire.js';
import { openLegacySession, post, send } from '../../../../scripts/lib/wire.js';

const handlers: DualEraHandler[] = [];
afterAll(async () => {
  await Promise.all(handlers.map((handler) => handler.close()));
});

function handlerWith(options: DualEraHttpOptions): DualEraHandler {
  const handler = createDualEraHandler(askNameServer, { legacySessionIdleMs: 60_000, ...options });
  handlers.push(handler);
  return handler;
}

/** Requests straight into `handler` from a client named by the `x-client` header (see `clientAddress` below). */
function into(handler: DualEraHandler, client = 'one', authInfo?: AuthInfo, sessionId?: string): Target {
  return {
    url: new URL('http://localhost/mcp'),
    headers: { host: 'localhost', 'x-client': client },
    fetch: (request) => handler.fetch(request, authInfo === undefined ? {} : { authInfo }),
    ...(sessionId !== undefined && { sessionId }),
  };
}

const byHeader = (request: Request) => request.headers.get('x-client');

function initialize(capabilities: object, clientInfo: object = { name: 'raw', version: '1' }, extra: object = {}) {
  return {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities, clientInfo, ...extra },
  };
}

/** Declared capabilities that a session holds as exactly `bytes` bytes. */
function capabilitiesOf(bytes: number): object {
  const overhead = heldBytes({ experimental: { pad: { text: '' } } });
  return { experimental: { pad: { text: 'x'.repeat(bytes - overhead) } } };
}

async function errorOf(response: Response): Promise<{ code: number; message: string }> {
  return ((await response.json()) as { error: { code: number; message: string } }).error;
}

describe('declared capabilities and kept initialize params', () => {
  it('refuses an initialize declaring more capabilities than maxClientCapabilitiesHeldBytes, and admits one at the limit', async () => {
    const handler = handlerWith({ maxClientCapabilitiesHeldBytes: 1_024 });
    const over = await post(into(handler), initialize(capabilitiesOf(1_025)));
    expect(over.status).toBe(400);
    expect(await errorOf(over)).toEqual({
      code: -32602,
      message:
        "Invalid params: initialize declares 1025 bytes of client capabilities (JSON, plus 64 per object, array and key), over this server's limit of 1024 bytes (maxClientCapabilitiesHeldBytes)",
    });
    await expect(openLegacySession(into(handler), capabilitiesOf(1_024))).resolves.toEqual(expect.any(String));
  });

  it('refuses 3.5 MB of capabilities with the default limit of 16 KiB', async () => {
    const handler = handlerWith({});
    const response = await post(into(handler), initialize(capabilitiesOf(3_500_000)));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(
      /^Invalid params: initialize declares 35\d{5} bytes of client capabilities/,
    );
  });

  it('weighs each object and key: 1,000 empty objects in 8 KB of JSON pass a 16 KiB limit', async () => {
    const handler = handlerWith({});
    const pad = Object.fromEntries(Array.from({ length: 1_000 }, (_, index) => [`k${index}`, {}]));
    const response = await post(into(handler), initialize({ experimental: { pad } }));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain('(maxClientCapabilitiesHeldBytes)');
  });

  it('refuses an initialize whose kept params pass maxLegacySessionHeldBytes', async () => {
    const handler = handlerWith({ maxLegacySessionHeldBytes: 2_048 });
    const response = await post(into(handler), initialize({}, { name: 'n'.repeat(2_100), version: '1' }));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(
      /^Invalid params: initialize params \(protocol version, capabilities, client info\) take \d+ bytes \(JSON, plus 64 per object, array and key\), over this server's limit of 2048 bytes per legacy session \(maxLegacySessionHeldBytes\)$/,
    );
  });

  it('keeps only the protocol version, capabilities and client info of an initialize', async () => {
    const hub = createMemorySessionHub();
    const handler = handlerWith({ sessionFleet: hub.member() });
    const response = await post(
      into(handler),
      initialize({ sampling: {} }, { name: 'raw', version: '1' }, { _meta: { big: 'x'.repeat(10_000) }, junk: [1, 2] }),
    );
    expect(response.status).toBe(200);
    const sessionId = response.headers.get('mcp-session-id')!;
    await response.body?.cancel();
    expect(await hub.member().load(sessionId, 60_000)).toEqual({
      initialize: {
        protocolVersion: '2025-11-25',
        capabilities: { sampling: {} },
        clientInfo: { name: 'raw', version: '1' },
      },
      streamKey: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });
});

describe('limits on one instance', () => {
  it('refuses a session past legacySessionBudgetHeldBytes with 503 and Retry-After, and admits one after a DELETE', async () => {
    // Each session holds 2,000 bytes of capabilities plus ~540 of the rest: two fit in 5,500, three do not.
    const handler = handlerWith({ legacySessionBudgetHeldBytes: 5_500, maxClientCapabilitiesHeldBytes: 4_000 });
    const first = await openLegacySession(into(handler, 'a'), capabilitiesOf(2_000));
    await openLegacySession(into(handler, 'b'), capabilitiesOf(2_000));
    const refused = await post(into(handler, 'c'), initialize(capabilitiesOf(2_000)));
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await errorOf(refused)).message).toMatch(
      /^Service Unavailable: legacy sessions hold \d+ of the 5500 bytes they may keep \(legacySessionBudgetHeldBytes\); retry in \d+ s$/,
    );
    expect((await send(into(handler, 'a', undefined, first), { method: 'DELETE' })).status).toBe(200);
    await expect(openLegacySession(into(handler, 'c'), capabilitiesOf(2_000))).resolves.toEqual(expect.any(String));
  });

  it('refuses a client its session past maxLegacySessionsPerClient with 429, while other clients still get in', async () => {
    const handler = handlerWith({ maxLegacySessionsPerClient: 2, clientAddress: byHeader });
    const first = await openLegacySession(into(handler, '192.0.2.1'));
    await openLegacySession(into(handler, '192.0.2.1'));
    const refused = await post(into(handler, '192.0.2.1'), initialize({}));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await errorOf(refused)).message).toMatch(
      /^Too Many Requests: this client holds its maximum of 2 legacy sessions \(maxLegacySessionsPerClient\); end one with DELETE or retry in \d+ s$/,
    );
    await expect(openLegacySession(into(handler, '192.0.2.2'))).resolves.toEqual(expect.any(String));
    // One IPv6 client owns its whole /64: a new address in it is the same client.
    await openLegacySession(into(handler, '2001:db8:1:2::1'));
    await openLegacySession(into(handler, '2001:db8:1:2::2'));
    expect((await post(into(handler, '2001:db8:1:2:ffff::3'), initialize({}))).status).toBe(429);
    expect((await send(into(handler, '192.0.2.1', undefined, first), { method: 'DELETE' })).status).toBe(200);
    await expect(openLegacySession(into(handler, '192.0.2.1'))).resolves.toEqual(expect.any(String));
  });

  it('counts an authenticated client by its principal, not its address', async () => {
    const handler = handlerWith({ maxLegacySessionsPerClient: 1, clientAddress: byHeader });
    const alice: AuthInfo = { token: 't1', clientId: 'alice', scopes: [] };
    const bob: AuthInfo = { token: 't2', clientId: 'bob', scopes: [] };
    await openLegacySession(into(handler, '192.0.2.9', alice));
    expect((await post(into(handler, '192.0.2.9', alice), initialize({}))).status).toBe(429);
    await expect(openLegacySession(into(handler, '192.0.2.9', bob))).resolves.toEqual(expect.any(String));
  });

  it('counts anonymous clients without an address in one shared bucket', async () => {
    const handler = handlerWith({ maxLegacySessionsPerClient: 1 });
    await openLegacySession(into(handler, 'ignored'));
    expect((await post(into(handler, 'ignored-too'), initialize({}))).status).toBe(429);
  });
});

describe('limits across a fleet (memory hub)', () => {
  function pair(options: DualEraHttpOptions): [DualEraHandler, DualEraHandler] {
    const hub = createMemorySessionHub();
    return [
      handlerWith({ ...options, sessionFleet: hub.member('a') }),
      handlerWith({ ...options, sessionFleet: hub.member('b') }),
    ];
  }

  it('enforces maxLegacySessions over the fleet, not per instance', async () => {
    const [a, b] = pair({ maxLegacySessions: 2, clientAddress: byHeader });
    await openLegacySession(into(a, '192.0.2.1'));
    await openLegacySession(into(b, '192.0.2.2'));
    const refused = await post(into(a, '192.0.2.3'), initialize({}));
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).message).toMatch(
      /^Service Unavailable: the fleet holds its maximum of 2 legacy sessions \(maxLegacySessions\); retry in \d+ s$/,
    );
  });

  it('enforces legacySessionBudgetHeldBytes over the fleet', async () => {
    // The store counts each record's held bytes (its capabilities' 2,000 and up to 1,000 more): two fit in 6,000, three do not.
    const [a, b] = pair({
      legacySessionBudgetHeldBytes: 6_000,
      maxClientCapabilitiesHeldBytes: 4_000,
      clientAddress: byHeader,
    });
    await openLegacySession(into(a, '192.0.2.1'), capabilitiesOf(2_000));
    await openLegacySession(into(b, '192.0.2.2'), capabilitiesOf(2_000));
    const refused = await post(into(a, '192.0.2.3'), initialize(capabilitiesOf(2_000)));
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).message).toContain('(legacySessionBudgetHeldBytes)');
  });

  it('enforces maxLegacySessionsPerClient over the fleet', async () => {
    const [a, b] = pair({ maxLegacySessionsPerClient: 1, clientAddress: byHeader });
    await openLegacySession(into(a, '192.0.2.1'));
    const refused = await post(into(b, '192.0.2.1'), initialize({}));
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).message).toContain('(maxLegacySessionsPerClient)');
    await expect(openLegacySession(into(b, '192.0.2.2'))).resolves.toEqual(expect.any(String));
  });
});

describe('options', () => {
  it('refuses a limit that is 0, negative, fractional or NaN, naming the option', () => {
    for (const option of [
      'maxClientCapabilitiesHeldBytes',
      'maxLegacySessionHeldBytes',
      'legacySessionBudgetHeldBytes',
      'maxLegacySessionsPerClient',
    ] as const) {
      for (const value of [0, -1, 1.5, Number.NaN]) {
        expect(() => createDualEraHandler(askNameServer, { [option]: value })).toThrow(
          `createDualEraHandler(): ${option} must be a positive integer (got ${String(value)}). The default is `,
        );
      }
    }
  });

  it('refuses serveHttp timeouts and a connection cap that are 0, negative or NaN, naming the option', async () => {
    for (const option of ['headersTimeoutMs', 'requestTimeoutMs', 'keepAliveTimeoutMs', 'maxConnections'] as const) {
      for (const value of [0, -5, Number.NaN]) {
        await expect(serveHttp(askNameServer, { [option]: value })).rejects.toThrow(
          `serveHttp(): ${option} must be a positive integer (got ${String(value)}). The default is `,
        );
      }
    }
    await expect(serveHttp(askNameServer, { headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 })).rejects.toThrow(
      'serveHttp(): headersTimeoutMs must not exceed requestTimeoutMs (got 5000 > 1000). Raise requestTimeoutMs or lower headersTimeoutMs.',
    );
  });
});
