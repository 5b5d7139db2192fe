/**
 * What a McpResolveServer hands HTTP hosting to reuse: its instances may serve request after request
 * until it gets a task tool (whose work outlives its request) or a raw `setup` hook (which may keep
 * state on an instance); every registration is an event its watchers get, reuse already as it is then.
 */
import { describe, expect, it } from 'vitest';

import { McpResolveServer } from 'mcp-resolve';

import { toolCallHeaders } from '../hosting/fixtures/modernCalls.js';
import { createModernLane } from '../../src/hosting/modern/modernLane.js';
import { toResponse } from '../../src/hosting/exchange.js';

const plain = () => new McpResolveServer({ name: 'reuse', version: '1' }).tool('hi', {}, () => 'hi');
const greeting = () => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hello' } }] });

describe('McpResolveServer.instanceReuse', () => {
  it('allows reuse for a server with plain tools, prompts and resources', () => {
    const server = plain()
      .prompt('greet', {}, greeting)
      .resource('about', 'about://me', {}, () => ({ contents: [] }));
    expect(server.instanceReuse.allowed).toBe(true);
  });

  it('stops allowing it once the server has a setup hook', () => {
    const server = plain();
    server.setup(() => {});
    expect(server.instanceReuse.allowed).toBe(false);
  });

  it('does not allow it for a server with a task tool', () => {
    const server = plain().tool('later', { task: { support: 'required' } }, () => 'done');
    expect(server.instanceReuse.allowed).toBe(false);
  });

  it('builds instances of the server as it is now', async () => {
    const server = plain();
    const before = await server.instanceReuse.create();
    server.tool('added', {}, () => 'added');
    const after = await server.instanceReuse.create();
    expect(before).not.toBe(after);
    expect(after.toolInputSchemaJson('added')).toBeDefined();
    await Promise.all([before.close(), after.close()]);
  });

  it('builds instances that serve modern requests on a transport of the hosting', async () => {
    const lane = createModernLane(plain().instanceReuse.create);
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'reuse-test', version: '0.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const parsedBody = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hi', arguments: {}, _meta } };
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers: toolCallHeaders('hi') });
    const reply = await lane.serve({
      request,
      parsedBody,
      authInfo: undefined,
      clientLeft: undefined,
      client: undefined,
    });
    // Served on the lane's own instance: a lane leaves what its instance cannot serve to the SDK's hosting (undefined).
    expect(reply && (await toResponse(reply).json())).toMatchObject({ result: { content: [{ text: 'hi' }] } });
    await lane.close();
  });

  it('tells its watchers of every registration, reuse as it is then, until they stop watching', () => {
    const server = plain();
    const seen: boolean[] = [];
    const stop = server.instanceReuse.watch(() => seen.push(server.instanceReuse.allowed));
    server.tool('more', {}, () => 'more');
    server.prompt('greet', {}, greeting);
    server.resource('about', 'about://me', {}, () => ({ contents: [] }));
    server.tool('job', { task: { support: 'optional' } }, () => 'done');
    stop();
    server.setup(() => {});
    expect(seen).toEqual([true, true, true, false]);
  });
});
