/**
 * Several `Set-Cookie` headers on one reply reach the client over `serveHttp`, all of them: a
 * channel route's reply (the SDK's Node adapter, which served these requests, kept only the last)
 * and a reply of the endpoint itself (written from a Web `Response` by the hosting's own writer).
 */
import { request as httpRequest } from 'node:http';

import { afterAll, describe, expect, it } from 'vitest';

import type { HttpRoute } from '../../src/channels/channel.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';

/** A route that owns `/pages/…` and answers two cookies, with the body it was sent. */
const ROUTE: HttpRoute = {
  owns: (request) => new URL(request.url).pathname.startsWith('/pages/'),
  async serve(request) {
    const headers = new Headers({ 'content-type': 'text/plain' });
    headers.append('set-cookie', 'first=1; Path=/pages; HttpOnly');
    headers.append('set-cookie', 'second=2; Path=/pages; HttpOnly');
    return new Response(`${request.method} ${await request.text()}`, { status: 200, headers });
  },
};

const handles: HttpServerHandle[] = [];
afterAll(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

interface Answer {
  readonly status: number;
  readonly cookies: readonly string[] | undefined;
  readonly body: string;
}

/** One request over `node:http`, its `Set-Cookie` headers as Node parses them (an array). */
function send(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          cookies: res.headers['set-cookie'],
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('several Set-Cookie headers over serveHttp', () => {
  it("reach the client from a channel route's reply, GET and form POST alike", async () => {
    const served = await serveHttp({ createServer: askNameServer, httpRoutes: [ROUTE] });
    handles.push(served);
    const page = new URL('/pages/x', served.url);
    const got = await send(page, 'GET', {});
    expect(got).toEqual({
      status: 200,
      cookies: ['first=1; Path=/pages; HttpOnly', 'second=2; Path=/pages; HttpOnly'],
      body: 'GET ',
    });
    const posted = await send(page, 'POST', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1');
    expect(posted.cookies).toEqual(['first=1; Path=/pages; HttpOnly', 'second=2; Path=/pages; HttpOnly']);
    expect(posted.body).toBe('POST a=1');
  });

  it("keep the route's Host guard and body limit", async () => {
    const served = await serveHttp({ createServer: askNameServer, httpRoutes: [ROUTE] }, { maxRequestBodyBytes: 8 });
    handles.push(served);
    const page = new URL('/pages/x', served.url);
    const foreign = await send(page, 'GET', { host: 'evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.cookies).toBeUndefined();
    const large = await send(page, 'POST', { 'content-type': 'text/plain' }, '0123456789');
    expect(large.status).toBe(413);
    expect(JSON.parse(large.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Payload Too Large: Request body must not exceed 8 bytes' },
      id: null,
    });
  });
});
