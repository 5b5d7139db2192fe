/**
 * A server source taken apart for HTTP hosting: a McpResolveServer hands over its instance reuse as
 * a value, and anything given as a bare factory (its own `createServer` included) is an SDK factory,
 * served with a fresh instance per request.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import { hostDualEra } from '../../src/hosting/dualEraHandler.js';
import { hostedServer } from '../../src/hosting/source.js';
import { McpResolveServer } from '../../src/index.js';

const KEYS = { requestState: { keys: ['a'.repeat(64)] } };
const server = () => new McpResolveServer({ name: 'source', version: '1' }, KEYS).tool('hi', {}, () => 'hi');

describe('hostedServer', () => {
  it("takes a McpResolveServer's instance reuse from the server itself", () => {
    const desk = server();
    expect(hostedServer(desk, 'test').reuse).toBe(desk.instanceReuse);
  });

  it("takes no instance reuse from a bare factory, a server's own createServer included", () => {
    expect(hostedServer(server().createServer, 'test').reuse).toBeUndefined();
    expect(hostedServer(() => new McpServer({ name: 'sdk', version: '1' }), 'test').reuse).toBeUndefined();
  });

  it('gives the hosting a lane for the server, none for its bare createServer', async () => {
    const desk = server();
    const laned = hostDualEra(desk, undefined, 'test');
    const bare = hostDualEra(desk.createServer, undefined, 'test');
    expect([laned.lane, bare.lane]).toEqual([true, false]);
    await Promise.all([laned.handler.close(), bare.handler.close()]);
  });
});
