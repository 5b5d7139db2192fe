/**
 * The modern leg as a server served by it changes: a registration made while it is served is one
 * event the leg handles alone. The next request sees it on both paths (the lane's instance is built
 * again, the SDK's hosting builds a fresh one of the server as it is now), the lane instance replaced
 * finishes its calls, and a task tool or `setup()` hook declared then sends every later request the
 * SDK's way.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { toolCallHeaders } from '../fixtures/modernCalls.js';

import { createModernLeg } from '../../../src/hosting/modern/modernLeg.js';
import type { Reply } from '../../../src/hosting/exchange.js';
import { toResponse } from '../../../src/hosting/exchange.js';
import { McpResolveServer } from '../../../src/index.js';
import { MODERN_REVISION } from '../../../src/protocol.js';
import { primeModernInstance } from '../../../src/sdkSeams/modernInstance.js';
import type { InstanceReuse } from '../../../src/server/instanceReuse.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'leg-test', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A modern request of `method` (JSON-RPC id 1), its body parsed as the hosting hands it over. */
function modern(method: string, params: Record<string, unknown>, headers: Record<string, string>) {
  const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } };
  const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers });
  return { body, request };
}

const callOf = (name: string, args: Record<string, unknown> = {}, extra: Record<string, string> = {}) =>
  modern('tools/call', { name, arguments: args }, { ...toolCallHeaders(name), ...extra });

const listOf = () => {
  const { 'mcp-name': _name, ...headers } = toolCallHeaders('unused');
  return modern('tools/list', {}, { ...headers, 'mcp-method': 'tools/list' });
};

/** The leg of `server`, its instances counted; `post` answers a request's JSON body. */
function legOf(server: McpResolveServer) {
  let built = 0;
  const create = (): McpServer => {
    built++;
    return server.createServer();
  };
  const reuse: InstanceReuse = {
    create: () => primeModernInstance(create(), MODERN_REVISION),
    get allowed() {
      return server.instanceReuse.allowed;
    },
    watch: (changed) => server.instanceReuse.watch(changed),
  };
  const leg = createModernLeg(create, reuse, { legacy: 'reject' });
  const post = async ({ body, request }: ReturnType<typeof modern>): Promise<Record<string, unknown>> => {
    const reply: Reply = await leg.post({
      request,
      parsedBody: body,
      authInfo: undefined,
      clientLeft: undefined,
      client: undefined,
    });
    return (await toResponse(reply).json()) as Record<string, unknown>;
  };
  return { leg, post, built: () => built };
}

const textOf = (body: Record<string, unknown>): string =>
  (body as { result?: { content?: Array<{ text?: string }> } }).result?.content?.[0]?.text ?? JSON.stringify(body);

const namesOf = (body: Record<string, unknown>): string[] =>
  (body as { result: { tools: Array<{ name: string }> } }).result.tools.map((tool) => tool.name);

describe('the modern leg, as its server changes', () => {
  it('serves a tool registered while served from the next request on; the lane instance replaced finishes its calls', async () => {
    let release = (): void => {};
    let started = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = new Promise<void>((resolve) => (started = resolve));
    const server = new McpResolveServer({ name: 'growing', version: '0.0.0' }).tool('hold', { input: {} }, async () => {
      started();
      await held;
      return 'released';
    });
    const { leg, post, built } = legOf(server);
    const inFlight = post(callOf('hold'));
    await holding;
    server.tool('added', { input: {} }, () => 'added later');
    expect(textOf(await post(callOf('added')))).toBe('added later');
    expect(namesOf(await post(listOf()))).toEqual(['hold', 'added']);
    expect(built()).toBe(2);
    release();
    expect(textOf(await inFlight)).toBe('released');
    await leg.close();
  });

  it('serves each request the lane leaves on a fresh instance of the server as it is now', async () => {
    const region = { region: z.string().meta({ 'x-mcp-header': 'Region' }) };
    const server = new McpResolveServer({ name: 'regional', version: '0.0.0' }).tool(
      'regional',
      { input: region },
      ({ region: where }) => `region ${where}`,
    );
    const { leg, post, built } = legOf(server);
    const regional = () => callOf('regional', { region: 'eu' }, { 'mcp-param-region': 'eu' });
    expect(textOf(await post(regional()))).toBe('region eu');
    expect(textOf(await post(regional()))).toBe('region eu');
    // The lane's instance (the rule reads its tools), and a fresh instance per request the SDK's hosting serves.
    expect(built()).toBe(3);
    server.tool('local', { input: region }, ({ region: where }) => `local ${where}`);
    expect(textOf(await post(callOf('local', { region: 'us' }, { 'mcp-param-region': 'us' })))).toBe('local us');
    // The lane's instance built again, and a fresh one of the server as it is now.
    expect(built()).toBe(5);
    await leg.close();
  });

  it('sends every request the SDK way, an instance each, once a task tool or setup hook is declared while served', async () => {
    for (const declare of [
      (server: McpResolveServer) => server.tool('job', { task: { support: 'optional' } }, () => 'done'),
      (server: McpResolveServer) => server.setup(() => {}),
    ]) {
      const server = new McpResolveServer({ name: 'turning', version: '0.0.0' }).tool('hi', {}, () => 'hi');
      const { leg, post, built } = legOf(server);
      expect(textOf(await post(callOf('hi')))).toBe('hi');
      expect(textOf(await post(callOf('hi')))).toBe('hi');
      expect(built()).toBe(1);
      declare(server);
      expect(textOf(await post(callOf('hi')))).toBe('hi');
      expect(textOf(await post(callOf('hi')))).toBe('hi');
      expect(built()).toBe(3);
      await leg.close();
    }
  });

  it('stops watching its server when closed', async () => {
    const server = new McpResolveServer({ name: 'closing', version: '0.0.0' }).tool('hi', {}, () => 'hi');
    let watching = 0;
    const reuse: InstanceReuse = {
      create: server.instanceReuse.create,
      allowed: true,
      watch(changed) {
        watching++;
        const stop = server.instanceReuse.watch(changed);
        return () => {
          watching--;
          stop();
        };
      },
    };
    const leg = createModernLeg(server.createServer, reuse, { legacy: 'reject' });
    expect(watching).toBe(1);
    await leg.close();
    expect(watching).toBe(0);
  });
});
