/**
 * The HTTP routes of a server source's channels: `createDualEraHandler` and `serveHttp` serve a
 * route's requests beside the MCP path, behind the Host check and the Origin check of any Origin but
 * `null` (a browser's form post from a no-referrer page); a source without routes changes nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';

import type { HttpRoute } from '../../src/channels/channel.js';
import { createDualEraHandler } from '../../src/hosting/index.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';

/** A route that owns `/pages/…` and answers with the path it served. */
const ROUTE: HttpRoute = {
  owns: (request) => new URL(request.url).pathname.startsWith('/pages/'),
  serve: async (request) => new Response(`served ${new URL(request.url).pathname}`, { status: 200 }),
};
const SOURCE = { createServer: askNameServer, httpRoutes: [ROUTE] };

const handles: HttpServerHandle[] = [];
afterAll(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

const get = (url: string, headers: Record<string, string>) => new Request(url, { headers });

describe("a source's HTTP routes", () => {
  it('are served beside the MCP path by createDualEraHandler', async () => {
    const handler = createDualEraHandler(SOURCE);
    const page = await handler.fetch(get('http://localhost:3000/pages/x', { host: 'localhost:3000' }));
    expect(await page.text()).toBe('served /pages/x');
    const other = await handler.fetch(get('http://localhost:3000/elsewhere', { host: 'localhost:3000' }));
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/json/);
    await handler.close();
  });

  it('keep the Host check, and the Origin check of any Origin but null', async () => {
    const handler = createDualEraHandler(SOURCE);
    const url = 'http://localhost:3000/pages/x';
    expect((await handler.fetch(get(url, { host: 'evil.example:3000' }))).status).toBe(403);
    expect((await handler.fetch(get(url, { host: 'localhost:3000', origin: 'http://evil.example' }))).status).toBe(403);
    expect((await handler.fetch(get(url, { host: 'localhost:3000', origin: 'null' }))).status).toBe(200);
    await handler.close();
  });

  it('change nothing when the source has none', async () => {
    const handler = createDualEraHandler({ createServer: askNameServer });
    const response = await handler.fetch(get('http://localhost:3000/pages/x', { host: 'localhost:3000' }));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/json/);
    await handler.close();
  });

  it('are served by serveHttp', async () => {
    const served = await serveHttp(SOURCE);
    handles.push(served);
    const page = await fetch(new URL('/pages/y', served.url));
    expect(await page.text()).toBe('served /pages/y');
  });
});
