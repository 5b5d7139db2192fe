/**
 * The `oauth` option with a configured `resource` (a public URL behind a proxy): the metadata is
 * served at the well-known path of that URL, the challenge points at it, and nothing reaches the
 * authorization server before a token is presented.
 */
import { afterAll, describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { HttpRoute } from '../../src/channels/channel.js';
import { createDualEraHandler } from '../../src/index.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';

const METADATA = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
// The issuer's port is closed: a test that reached it would fail with 500.
const handler = createDualEraHandler(createRefundDesk(), {
  allowedHosts: ['mcp.example.com'],
  oauth: { issuer: 'http://127.0.0.1:9', resource: 'https://mcp.example.com/mcp', scopes: ['mcp', 'refunds'] },
});

afterAll(() => handler.close());

/** A request to the public host (the Host header is what the DNS-rebinding guard reads). */
function publicRequest(url: string, init: RequestInit = {}): Request {
  return new Request(url, {
    ...init,
    headers: { host: 'mcp.example.com', ...(init.headers as Record<string, string>) },
  });
}

describe('oauth with a configured resource', () => {
  it('serves the metadata at the resource’s well-known path, readable from any origin', async () => {
    const response = await handler.fetch(publicRequest(METADATA));
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({
      resource: 'https://mcp.example.com/mcp',
      authorization_servers: ['http://127.0.0.1:9'],
      scopes_supported: ['mcp', 'refunds'],
      bearer_methods_supported: ['header'],
    });
    expect((await handler.fetch(publicRequest(METADATA, { method: 'OPTIONS' }))).status).toBe(204);
    expect((await handler.fetch(publicRequest(METADATA, { method: 'POST', body: '{}' }))).status).toBe(405);
  });

  it('answers a request without a token 401 pointing at that metadata, with the scopes', async () => {
    const response = await handler.fetch(
      publicRequest('https://mcp.example.com/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      }),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="Missing Authorization header", scope="mcp refunds", resource_metadata="${METADATA}"`,
    );
  });

  it('refuses a token over maxTokenBytes 401 without asking the authorization server', async () => {
    const response = await handler.fetch(
      publicRequest('https://mcp.example.com/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${'a'.repeat(8_193)}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      }),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('The access token is longer than 8192 bytes');
  });

  it('leaves other paths alone: 404', async () => {
    expect((await handler.fetch(publicRequest('https://mcp.example.com/.well-known/other'))).status).toBe(404);
  });

  it('lets requests for the server’s own pages (a person’s browser, no bearer token) past the check', async () => {
    const route: HttpRoute = {
      owns: (request) => new URL(request.url).pathname.startsWith('/pages/'),
      serve: () => Promise.resolve(new Response('a page', { status: 200 })),
    };
    const paged = createDualEraHandler(
      { createServer: askNameServer, httpRoutes: [route] },
      {
        allowedHosts: ['mcp.example.com'],
        oauth: { issuer: 'http://127.0.0.1:9', resource: 'https://mcp.example.com/mcp' },
      },
    );
    try {
      const page = await paged.fetch(publicRequest('https://mcp.example.com/pages/x'));
      expect(await page.text()).toBe('a page');
      expect((await paged.fetch(publicRequest('https://mcp.example.com/mcp', { method: 'GET' }))).status).toBe(401);
    } finally {
      await paged.close();
    }
  });
});
