/**
 * serveHttp holds nothing forever: slow senders are cut off by Node's header and request
 * deadlines, connections past `maxConnections` are closed, and an anonymous client is counted by
 * its socket address for `maxLegacySessionsPerClient`.
 */
import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { connect } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import type { HttpServerHandle, ServeHttpOptions } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';
import { openLegacySession, post } from '../../scripts/lib/wire.js';

const running: HttpServerHandle[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(running.splice(0).map((handle) => handle.close()));
});

async function serve(options: ServeHttpOptions): Promise<HttpServerHandle> {
  const handle = await serveHttp(askNameServer, options);
  running.push(handle);
  return handle;
}

/** A raw TCP connection to `url`; `closed` resolves with what the server wrote once it closes the socket. */
async function open(url: URL): Promise<{ socket: Socket; closed: Promise<string> }> {
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed };
}

/** Writes `piece` every 50 ms until the socket closes (at most `times` times). */
function trickle(socket: Socket, piece: string, times: number): void {
  let sent = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || sent++ >= times) return clearInterval(timer);
    socket.write(piece);
  }, 50);
  socket.once('close', () => clearInterval(timer));
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** The status of an `initialize` sent from the local address `localAddress`. */
function initializeFrom(url: URL, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (response) => {
        response.destroy();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(INITIALIZE));
  });
}

describe('serveHttp deadlines and connection cap', () => {
  it('closes a socket that trickles its headers past headersTimeoutMs', async () => {
    const handle = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const { socket, closed } = await open(handle.url);
    socket.write(`POST /mcp HTTP/1.1\r\nHost: localhost\r\n`);
    trickle(socket, 'X-Slow: 1\r\n', 400);
    await closed;
    expect(socket.destroyed).toBe(true);
  });

  it('answers 408 and closes a socket that trickles its body past requestTimeoutMs', async () => {
    const handle = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const { socket, closed } = await open(handle.url);
    socket.write(
      'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
    );
    trickle(socket, ' ', 400);
    expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes connections past maxConnections and keeps the others', async () => {
    const handle = await serve({ maxConnections: 2 });
    const first = await open(handle.url);
    const second = await open(handle.url);
    const third = await open(handle.url);
    await third.closed;
    expect(first.socket.destroyed).toBe(false);
    expect(second.socket.destroyed).toBe(false);
  });

  it('counts an anonymous client by its socket address', async () => {
    const handle = await serve({ maxLegacySessionsPerClient: 2 });
    await openLegacySession({ url: handle.url });
    await openLegacySession({ url: handle.url });
    const refused = await post({ url: handle.url }, INITIALIZE);
    expect(refused.status).toBe(429);
    await refused.body?.cancel();
    // Another loopback address is another client.
    expect(await initializeFrom(handle.url, '127.0.0.2')).toBe(200);
  });

  it('counts a session with a forwarding header from a loopback socket (a proxy) against no client', async () => {
    const handle = await serve({ maxLegacySessionsPerClient: 1, onerror: () => {} });
    const viaProxy = { url: handle.url, headers: { 'x-forwarded-for': '203.0.113.7' } };
    for (let index = 0; index < 3; index++)
      await expect(openLegacySession(viaProxy)).resolves.toEqual(expect.any(String));
  });

  it('hands clientAddress the socket address', async () => {
    const seen: (string | undefined)[] = [];
    const handle = await serve({ clientAddress: (_request, socketAddress) => void seen.push(socketAddress) });
    expect(await initializeFrom(handle.url, '127.0.0.3')).toBe(200);
    expect(seen).toEqual(['127.0.0.3']);
  });

  it('counts an authenticated client by its principal', async () => {
    const handle = await serve({
      maxLegacySessionsPerClient: 1,
      authenticate: (request) => ({ token: 't', clientId: request.headers.get('x-user') ?? 'anyone', scopes: [] }),
    });
    await openLegacySession({ url: handle.url, headers: { 'x-user': 'alice' } });
    await expect(openLegacySession({ url: handle.url, headers: { 'x-user': 'alice' } })).rejects.toThrow(
      'initialize answered 429',
    );
    await expect(openLegacySession({ url: handle.url, headers: { 'x-user': 'bob' } })).resolves.toEqual(
      expect.any(String),
    );
  });
});
