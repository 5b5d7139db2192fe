/**
 * serveHttp on the wire: a request target that is not a path gets 400 (not 500), and behind
 * `authenticate` the answer pages are reached without a bearer token and check their own user
 * (`browserUser` returning the person's `AuthInfo`), while MCP requests still need the token.
 */
import { connect } from 'node:net';

import { requireBearerAuth } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { answerPage, connectHttp } from '../../src/testing/index.js';
import { browserUser, verifier } from '../stories/deskLogin.js';
import { askNameServer } from '../testing/fixtures/askNameServer.js';

const running: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((handle) => handle.close()));
});

/** Sends `head` (request line and headers) over a raw socket and resolves with everything the server wrote. */
function rawRequest(url: URL, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(head));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

describe('serveHttp request targets', () => {
  it.each([
    ['an absolute URL', 'GET http://127.0.0.1/mcp'],
    ['an absolute URL on a POST', 'POST http://evil.example/mcp'],
    ['*', 'OPTIONS *'],
  ])('answers %s with 400 and says what to send, reported', async (_what, line) => {
    const reports: string[] = [];
    const served = await serveHttp(askNameServer, { onerror: (error) => reports.push(error.message) });
    running.push(served);
    const host = served.url.host;
    const raw = await rawRequest(served.url, `${line} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\n\r\n`);
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain(
      JSON.stringify({
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: "Bad Request: the request target must be a path such as /mcp, not an absolute URL or '*'",
        },
        id: null,
      }),
    );
    expect(reports).toEqual(['Rejected request: request target is not a path (400)']);
  });
});

describe('serveHttp authenticate with answer pages', () => {
  it('leaves pages to browserUser: no bearer token needed, only the asked person answers', async () => {
    const authenticated: string[] = [];
    const gate = requireBearerAuth({ verifier });
    const desk = createRefundDesk({
      requestState: { keys: [new Uint8Array(32).fill(7)] },
      answerPage: { browserUser },
    });
    const served = await serveHttp(desk, {
      authenticate: (request) => {
        authenticated.push(new URL(request.url).pathname);
        return gate(request);
      },
    });
    running.push(served);
    const mcp = await fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(mcp.status).toBe(401);

    const connection = await connectHttp(served.url, {
      era: 'modern',
      capabilities: {},
      transportOptions: { requestInit: { headers: { authorization: 'Bearer alice-token' } } },
    });
    try {
      const asked = await connection.client.callTool({
        name: 'refund_order',
        arguments: { order_id: 'ORD-7002', reason: 'arrived broken' },
      });
      const link = /https?:\/\/\S+/.exec(JSON.stringify(asked.content).replace(/\\n/g, ' '))?.[0] ?? 'no link';
      const notYours = { status: 403, saved: false, heading: 'This question is not for this account' };
      expect(await answerPage(link, { action: 'cancel' })).toMatchObject(notYours);
      expect(await answerPage(link, { action: 'cancel' }, { headers: { cookie: 'desk_session=bob' } })).toMatchObject(
        notYours,
      );
      const answered = await answerPage(
        link,
        { action: 'accept', content: { full: true } },
        { headers: { cookie: 'theme=dark; desk_session=alice' } },
      );
      expect(answered).toMatchObject({ status: 200, saved: true });
      expect(authenticated.every((path) => path === served.url.pathname)).toBe(true);
      expect(authenticated.length).toBeGreaterThan(1);
    } finally {
      await connection.close();
    }
  });
});
