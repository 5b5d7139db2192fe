import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { McpResolveError } from '../../src/errors.js';
import { createDualEraHandler } from '../../src/hosting/index.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';
import { ACCEPT, openLegacySession, rawRequest, send } from '../../scripts/lib/wire.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

let served: HttpServerHandle;
beforeAll(async () => {
  served = await serveHttp(askNameServer);
});
afterAll(async () => {
  await served.close();
});

function initializeWith(headers: Record<string, string>) {
  return rawRequest(served.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: INITIALIZE,
  });
}

describe('DNS-rebinding guard', () => {
  it('rejects a foreign Host header with 403 by default', async () => {
    const response = await initializeWith({ host: `evil.example:${served.url.port}` });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });

  it('accepts the loopback names', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const response = await initializeWith({ host: `${host}:${served.url.port}` });
      expect(response.status).toBe(200);
    }
  });

  it('logs the first refusal of each Host once, naming allowedHosts and the value to pass', async () => {
    const lines: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((line: string) => void lines.push(line));
    try {
      const host = `logged.example:${served.url.port}`;
      expect((await initializeWith({ host })).status).toBe(403);
      expect((await initializeWith({ host })).status).toBe(403);
    } finally {
      warn.mockRestore();
    }
    expect(lines).toEqual([
      `mcp-resolve: refused a request with Host 'logged.example:${served.url.port}' (403): not in allowedHosts ` +
        `[localhost, 127.0.0.1, [::1]]. If clients reach this server by that name, pass allowedHosts: ['logged.example'] ` +
        'to serveHttp() or createDualEraHandler().',
    ]);
  });

  it.each(['localhost:P@evil.example', 'a b', 'localhost:99999', '[::1'])(
    'answers a malformed Host header (%j) with 400 and a JSON-RPC error, not 500',
    async (host) => {
      const response = await initializeWith({ host });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Bad Request: malformed Host header' },
      });
    },
  );

  it('answers a malformed Host header with 400 on the Web handler too, reported', async () => {
    const reports: string[] = [];
    const handler = createDualEraHandler(askNameServer, { onerror: (error) => reports.push(error.message) });
    try {
      for (const host of ['localhost:P@evil.example', 'a b', 'localhost:99999', '[::1']) {
        const response = await handler.fetch(
          new Request('http://localhost/mcp', {
            method: 'POST',
            headers: { host, 'content-type': 'application/json', accept: ACCEPT },
            body: INITIALIZE,
          }),
        );
        expect(response.status).toBe(400);
      }
      expect(reports).toEqual(Array(4).fill('Rejected request: malformed Host header (400)'));
    } finally {
      await handler.close();
    }
  });

  it('names a missing Host header as missing when the Web handler is called without one', async () => {
    const reports: string[] = [];
    const handler = createDualEraHandler(askNameServer, { onerror: (error) => reports.push(error.message) });
    try {
      const response = await handler.fetch(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: ACCEPT },
          body: INITIALIZE,
        }),
      );
      expect(response.status).toBe(403);
      expect(reports).toEqual([
        'mcp-resolve: refused a request without a Host header (403). HTTP clients always send one; code that calls the fetch handler itself must set it to a name in allowedHosts [localhost, 127.0.0.1, [::1]].',
      ]);
    } finally {
      await handler.close();
    }
  });

  it('rejects a foreign Origin with 403 and accepts a loopback one', async () => {
    expect((await initializeWith({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await initializeWith({ origin: `http://localhost:${served.url.port}` })).status).toBe(200);
  });

  it('takes allowed hosts and origins as options', async () => {
    const handler = createDualEraHandler(askNameServer, {
      allowedHosts: ['mcp.example'],
      allowedOrigins: ['app.example'],
    });
    try {
      const at = (host: string, origin?: string) => ({
        url: new URL(`http://${host}/mcp`),
        headers: { host, ...(origin !== undefined && { origin }) },
        fetch: (request: Request) => handler.fetch(request),
      });
      await expect(openLegacySession(at('mcp.example', 'https://app.example'))).resolves.toEqual(expect.any(String));
      expect((await send(at('localhost'), { method: 'POST', body: JSON.parse(INITIALIZE) })).status).toBe(403);
      expect(
        (await send(at('mcp.example', 'http://localhost'), { method: 'POST', body: JSON.parse(INITIALIZE) })).status,
      ).toBe(403);
    } finally {
      await handler.close();
    }
  });
});

describe('request shape', () => {
  it('answers a POST that is not JSON with 415', async () => {
    const response = await send({ url: served.url }, { method: 'POST', headers: { 'content-type': 'text/plain' } });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({
      error: { code: -32000, message: expect.stringContaining('Unsupported Media Type') },
    });
  });

  it('answers a body that is not JSON with a parse error', async () => {
    const response = await rawRequest(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: -32700 } });
  });

  it.each([
    ['a deeply nested array', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    [
      'a batch whose entry is a deeply nested array',
      `[{"jsonrpc":"2.0","method":"ping","id":1},${'['.repeat(100_000)}${']'.repeat(100_000)}]`,
    ],
  ])('answers %s with 400 and a JSON-RPC error, reported, without walking it', async (_case, body) => {
    const reports: string[] = [];
    const handler = createDualEraHandler(askNameServer, { onerror: (error) => reports.push(error.message) });
    try {
      const response = await handler.fetch(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { host: 'localhost', 'content-type': 'application/json', accept: ACCEPT },
          body,
        }),
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: 'Invalid Request: a JSON-RPC batch entry must be a message object, not an array',
        },
      });
      expect(reports).toEqual(['Rejected request: a JSON-RPC batch entry must be a message object, not an array']);
    } finally {
      await handler.close();
    }
  });

  it('keeps serving after a nested body over HTTP', async () => {
    const nested = await rawRequest(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body: `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    });
    expect(nested.status).toBe(400);
    expect(JSON.parse(nested.body)).toMatchObject({ error: { code: -32600 } });
    await expect(openLegacySession({ url: served.url })).resolves.toEqual(expect.any(String));
  });

  it('answers a body over maxRequestBodyBytes with 413', async () => {
    const small = await serveHttp(askNameServer, { maxRequestBodyBytes: 64 });
    try {
      const response = await send({ url: small.url }, { method: 'POST', body: { padding: 'x'.repeat(200) } });
      expect(response.status).toBe(413);
    } finally {
      await small.close();
    }
  });

  it('answers other paths with 404 and other methods with 405', async () => {
    expect((await send({ url: new URL('/elsewhere', served.url) }, { method: 'GET' })).status).toBe(404);
    const put = await send({ url: served.url }, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
  });

  it('serves a custom path', async () => {
    const custom = await serveHttp(askNameServer, { path: '/custom' });
    try {
      expect(custom.url.pathname).toBe('/custom');
      await expect(openLegacySession({ url: custom.url })).resolves.toEqual(expect.any(String));
    } finally {
      await custom.close();
    }
  });
});

describe('options', () => {
  it.each([
    [{ legacySessionIdleMs: 0 }, /legacySessionIdleMs must be a positive number/],
    [{ legacySessionIdleMs: Number.NaN }, /legacySessionIdleMs/],
    [{ path: 'mcp' }, /path must start with '\/'/],
    [{ allowedHosts: [] }, /allowedHosts must be a non-empty array/],
    [{ maxRequestBodyBytes: -1 }, /maxRequestBodyBytes/],
  ])('rejects %o', (options, message) => {
    expect(() => createDualEraHandler(askNameServer, options)).toThrow(McpResolveError);
    expect(() => createDualEraHandler(askNameServer, options)).toThrow(message);
  });

  it('accepts Infinity as an idle lifetime', async () => {
    await createDualEraHandler(askNameServer, { legacySessionIdleMs: Infinity }).close();
  });

  it('rejects a port out of range', async () => {
    await expect(serveHttp(askNameServer, { port: 70_000 })).rejects.toMatchObject({ code: 'invalid_options' });
  });
});
