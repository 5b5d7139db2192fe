/**
 * The `answerPage` option of `new McpResolveServer()`: checked at construction (`publicOrigin` is an
 * https origin, or http on loopback; `formSecret` and `path` are named as the server's options), its links on the public origin and path, its page route on the
 * server for HTTP hosting to serve; and the same server answers the same in process whether or not
 * an HTTP host was created for it.
 */
import type { ElicitRequest } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import { createMemoryAnswerPageBackend } from '../../src/pageStore/memoryBackend.js';
import { answerPagePath } from '../../src/answerPage/handler.js';
import { newPageId } from '../../src/pageStore/store.js';
import { McpResolveError } from '../../src/errors.js';
import type { FailureInfo } from '../../src/index.js';
import { McpResolveServer } from '../../src/index.js';
import { createDualEraHandler } from '../../src/hosting/index.js';
import { connectInProcess } from '../../src/testing/index.js';
import { REFUND, refundServer } from './refundServer.js';

/** The `invalid_options` error of a server built with `publicOrigin`. */
function refusal(publicOrigin: string): McpResolveError {
  try {
    refundServer({ publicOrigin });
  } catch (error) {
    if (error instanceof McpResolveError) return error;
    throw error;
  }
  return expect.fail(`expected invalid_options for ${publicOrigin}`);
}

describe('answerPage.publicOrigin', () => {
  it.each([
    [
      'javascript:alert(1)',
      "new McpResolveServer(): answerPage.publicOrigin must use https (got 'javascript:' for host ''). Links are opened by people in browsers: serve them over https; plain http is allowed only for localhost, 127.0.0.1 and [::1].",
    ],
    [
      'http://desk.example.com',
      "new McpResolveServer(): answerPage.publicOrigin must use https (got 'http:' for host 'desk.example.com'). Links are opened by people in browsers: serve them over https; plain http is allowed only for localhost, 127.0.0.1 and [::1].",
    ],
    [
      'https://user:secret@desk.example.com',
      "new McpResolveServer(): answerPage.publicOrigin carries a user name or password (got 'https://…@desk.example.com'). Leave credentials out of it.",
    ],
    [
      'https://desk.example.com/mcp',
      "new McpResolveServer(): answerPage.publicOrigin must be an origin, without a path, query or fragment (got 'https://desk.example.com/mcp'). Give the origin only, such as 'https://desk.example.com', and the pages' path as answerPage.path.",
    ],
    [
      'desk.example.com',
      "new McpResolveServer(): answerPage.publicOrigin must be an origin such as https://mcp.example.com (got 'desk.example.com'). Give the scheme and host the links are opened on.",
    ],
  ])('refuses %s at construction, naming the option and what is wrong', (publicOrigin, message) => {
    const error = refusal(publicOrigin);
    expect(error.code).toBe('invalid_options');
    expect(error.message).toBe(message);
    expect(error.data).toEqual({ api: 'new McpResolveServer()', option: 'answerPage.publicOrigin' });
  });

  it('takes https origins, and http on loopback hosts', () => {
    for (const origin of [
      'https://desk.example.com',
      'https://desk.example.com:8443/',
      'http://localhost:3000',
      'http://127.0.0.1',
      'http://[::1]:8080',
    ])
      expect(() => refundServer({ publicOrigin: origin })).not.toThrow();
  });
});

describe('answerPage.formSecret and answerPage.path', () => {
  it('refuses a secret an unset environment variable left empty, naming the server and the option', () => {
    expect(() => refundServer({ formSecret: process.env['MCP_RESOLVE_UNSET_SECRET'] ?? '' })).toThrow(
      'new McpResolveServer(): answerPage.formSecret must be at least 32 bytes (got 0). Use 32 random bytes, the same on every instance (an environment variable that is not set reads as empty).',
    );
  });

  it('refuses a path that cannot hold pages, naming the server and the option', () => {
    expect(() => refundServer({ path: 'answers/' })).toThrow(
      "new McpResolveServer(): answerPage.path must start with '/', not end with '/' and hold no '?', '#' or space (got 'answers/'). Give a path such as '/mcp-resolve/answer'.",
    );
  });
});

describe('a page that cannot be shown', () => {
  it("is reported to the server's onerror as an answer page failure, under the ref the page shows", async () => {
    const backend = createMemoryAnswerPageBackend();
    const failing = { ...backend, page: () => Promise.reject(new Error('store down')) };
    const seen: Array<{ error: unknown; info: FailureInfo }> = [];
    const server = new McpResolveServer(
      { name: 'refunds', version: '1.0.0' },
      { answerPage: { backend: failing }, onerror: (error, info) => seen.push({ error, info }) },
    );
    const [route] = server.httpRoutes;
    const response = await route!.serve(new Request(`http://localhost${answerPagePath(newPageId())}`));
    expect(response.status).toBe(503);
    const ref = /\(ref ([0-9a-f]{12})\)/.exec(await response.text())?.[1];
    expect(seen).toHaveLength(1);
    expect(seen[0]!.info).toEqual({ ref, method: 'answer page', name: '/mcp-resolve/answer' });
    expect((seen[0]!.error as Error).message).toBe('store down');
  });
});

/** What a URL-only 2026-07-28 client sees calling `refund` on `server` in process: the URL question, and the result. */
async function urlOnlyOutcome(server: ReturnType<typeof refundServer>) {
  const asked: ElicitRequest['params'][] = [];
  const connection = await connectInProcess(server, {
    era: 'modern',
    capabilities: { elicitation: { url: {} } },
    elicit: async (params) => {
      asked.push(params);
      return { action: 'decline' };
    },
  });
  try {
    const result = await connection.client.callTool({ name: 'refund', arguments: { order_id: 'ORD-1' } });
    return { asked, result };
  } finally {
    await connection.close();
  }
}

describe('a server with answerPage', () => {
  it('links on its public origin and path', async () => {
    const { asked } = await urlOnlyOutcome(
      refundServer({ publicOrigin: 'https://desk.example.com', path: '/answers' }),
    );
    expect(asked).toEqual([
      expect.objectContaining({
        mode: 'url',
        message: REFUND,
        url: expect.stringMatching(/^https:\/\/desk\.example\.com\/answers\/[\w-]{22}$/),
      }),
    ]);
  });

  it('has its page route for HTTP hosting to serve, and none without the option', () => {
    const [route, ...more] = refundServer({ path: '/answers' }).httpRoutes;
    expect(more).toEqual([]);
    expect(route!.owns(new Request('http://localhost/answers/abc'))).toBe(true);
    expect(route!.owns(new Request('http://localhost/mcp'))).toBe(false);
    expect(refundServer(undefined).httpRoutes).toEqual([]);
  });

  it('answers the same in process before and after an HTTP host was created for it', async () => {
    const server = refundServer({ publicOrigin: 'https://desk.example.com' });
    const before = await urlOnlyOutcome(server);
    const handler = createDualEraHandler(server);
    const after = await urlOnlyOutcome(server);
    await handler.close();
    const shape = {
      mode: 'url',
      message: REFUND,
      url: expect.stringMatching(/^https:\/\/desk\.example\.com\/mcp-resolve\/answer\/[\w-]{22}$/),
    };
    expect(before.asked).toEqual([expect.objectContaining(shape)]);
    expect(after.asked).toEqual([expect.objectContaining(shape)]);
    expect(after.result).toEqual(before.result);
  });
});
