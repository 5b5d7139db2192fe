/**
 * The request a handler gets (`ctx.http.req`) carries whom it counts against, as its host decided
 * it: the host's own `ClientRequest` reaches the handler on the modern lane, through the SDK's own
 * hosting (a server with a `setup()` hook), and on a legacy session. Real SDK clients over
 * `serveHttp`, which sees them come from the loopback address.
 */
import { afterEach, describe, expect, it } from 'vitest';

import type { Era } from '../../src/context.js';
import { ClientRequest, requestClientOf } from '../../src/channels/requestClient.js';
import { McpResolveServer } from '../../src/index.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import type { TestConnection } from '../../src/testing/index.js';
import { connectHttp } from '../../src/testing/index.js';

const running: Array<HttpServerHandle | TestConnection> = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

/** A server whose tool answers what its request says of the client. */
function clientServer(sdkHosted: boolean): McpResolveServer {
  const server = new McpResolveServer({ name: 'clients', version: '0.0.0' }).tool('client', {}, (_args, ctx) =>
    JSON.stringify({ carried: ctx.http?.req instanceof ClientRequest, client: requestClientOf(ctx.http?.req) }),
  );
  return sdkHosted ? server.setup(() => {}) : server;
}

describe('the client a request counts against, carried by the request', () => {
  it.each<[string, Era, boolean]>([
    ['the modern lane', 'modern', false],
    ["the SDK's own hosting", 'modern', true],
    ['a legacy session', 'legacy', false],
  ])('reaches the handler on %s', async (_path, era, sdkHosted) => {
    const served = await serveHttp(clientServer(sdkHosted), { port: 0 });
    running.push(served);
    const connection = await connectHttp(served.url, { era, capabilities: {} });
    running.push(connection);
    const result = await connection.client.callTool({ name: 'client', arguments: {} });
    const [first] = result.content as Array<{ text: string }>;
    expect(JSON.parse(first?.text ?? '{}')).toEqual({ carried: true, client: { address: '127.0.0.1' } });
  });
});
