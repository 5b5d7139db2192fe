/**
 * `ctx.mcpReq.id` is the client's id of the request, for a tool and for its resolvers, on both
 * paths of the HTTP hosting: the modern lane (one instance whose connection renumbers requests,
 * since clients' ids collide there) and the SDK's own hosting (a fresh instance per request, for a
 * server with a `setup()` hook). Real SDK clients over `serveHttp`; the ids the clients sent are
 * read off their own requests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { McpResolveServer, resolver } from '../../src/index.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import type { TestConnection } from '../../src/testing/index.js';
import { connectRecordingIds } from '../fixtures/idRecordingClient.js';

const running: Array<HttpServerHandle | TestConnection> = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

/** A server whose tool answers the ids it and its resolver saw, once `inside` calls are running at once. */
function idServer(inside: number, sdkHosted: boolean): McpResolveServer {
  let running = 0;
  let release!: () => void;
  const together = new Promise<void>((resolve) => (release = resolve));
  const seenId = resolver({ name: 'seenId' }, (_input, ctx) => ctx.mcpReq.id);
  const server = new McpResolveServer({ name: 'ids', version: '0.0.0' }).tool(
    'ids',
    { input: { tag: z.string() }, resolve: { resolverId: seenId } },
    async ({ resolverId }, ctx) => {
      if (++running >= inside) release();
      await together;
      return JSON.stringify({ tool: ctx.mcpReq.id, resolver: resolverId });
    },
  );
  return sdkHosted ? server.setup(() => {}) : server;
}

/** A modern client of `url` recording the id of each `tools/call` it sends. */
async function clientOf(url: URL): Promise<{ connection: TestConnection; sent: unknown[] }> {
  const { connection, sent } = await connectRecordingIds(url, ['tools/call']);
  running.push(connection);
  return {
    connection,
    get sent() {
      return sent.map(({ id }) => id);
    },
  };
}

/** The ids the tool and its resolver saw on one call. */
async function idsSeen(connection: TestConnection): Promise<{ tool: unknown; resolver: unknown }> {
  const result = await connection.client.callTool({ name: 'ids', arguments: { tag: 'x' } });
  const [first] = result.content as Array<{ text: string }>;
  return JSON.parse(first?.text ?? '{}') as { tool: unknown; resolver: unknown };
}

describe('ctx.mcpReq.id over serveHttp on 2026-07-28', () => {
  it.each([
    ['the modern lane', false],
    ["the SDK's own hosting", true],
  ])('is the id each client sent, also for two concurrent clients whose ids are equal (%s)', async (_path, sdk) => {
    const served = await serveHttp(idServer(2, sdk), { port: 0 });
    running.push(served);
    const alice = await clientOf(served.url);
    const bob = await clientOf(served.url);
    // Each client's first call is in flight with the other's, under the same id: the lane's connection renumbers one.
    const [first, second] = await Promise.all([idsSeen(alice.connection), idsSeen(bob.connection)]);
    const [third, fourth] = await Promise.all([idsSeen(alice.connection), idsSeen(bob.connection)]);
    expect(alice.sent).toEqual([alice.sent[0], alice.sent[1]]);
    expect(alice.sent[0]).toBe(bob.sent[0]);
    expect([first, third]).toEqual(alice.sent.map((id) => ({ tool: id, resolver: id })));
    expect([second, fourth]).toEqual(bob.sent.map((id) => ({ tool: id, resolver: id })));
  });
});
