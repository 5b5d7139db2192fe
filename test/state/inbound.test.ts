/**
 * Inbound verification in a server built with the library: every `requestState` arriving on
 * tools/call, prompts/get or resources/read is checked before any handler or resolver runs,
 * including on handlers that never mint state, and a token only opens on the request it was
 * minted for.
 */
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { InputRequiredResult } from '@modelcontextprotocol/client';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { elicit, McpResolveServer, resolver } from 'mcp-resolve';
import { connectManual } from 'mcp-resolve/testing';

import { FROZEN, KEY_A } from './helpers.js';

let runs: Record<string, number>;
const closers: Array<() => Promise<void>> = [];
beforeEach(() => {
  runs = {};
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
const ran = (what: string) => {
  runs[what] = (runs[what] ?? 0) + 1;
};

function buildServer(): McpResolveServer {
  const ask = resolver({ name: 'ok' }, () => {
    ran('resolver');
    return elicit('Proceed?', z.object({ ok: z.boolean() }));
  });
  return new McpResolveServer(
    { name: 'inbound', version: '1.0.0' },
    { requestState: { keys: [KEY_A] }, onerror: () => {} },
  )
    .tool('asks', { input: { n: z.number() }, resolve: { ok: ask } }, ({ ok }) => {
      ran('asks');
      return String(ok.ok);
    })
    .tool('asks_too', { input: { n: z.number() }, resolve: { ok: ask } }, () => {
      ran('asks_too');
      return 'other';
    })
    .tool('plain', {}, () => {
      ran('plain');
      return 'plain';
    })
    .prompt('greeting', { args: { who: z.string() } }, ({ who }) => {
      ran('prompt');
      return { messages: [{ role: 'user', content: { type: 'text', text: `hello ${who}` } }] };
    })
    .resource('notes', 'test://notes', { mimeType: 'text/plain' }, (uri) => {
      ran('resource');
      return { contents: [{ uri: uri.href, text: 'notes' }] };
    });
}

async function manualClient(server: McpResolveServer): Promise<Client> {
  const connection = await connectManual(server.createServer);
  closers.push(() => connection.close());
  return connection.client;
}

const answer = { ok: { action: 'accept', content: { ok: true } } };

function callTool(client: Client, name: string, args: Record<string, unknown>, requestState?: string) {
  return client.request(
    {
      method: 'tools/call',
      params: { name, arguments: args, ...(requestState !== undefined && { requestState, inputResponses: answer }) },
    },
    { allowInputRequired: true },
  );
}

async function expectFrozen(call: Promise<unknown>): Promise<void> {
  const error = await call.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ProtocolError);
  const { code, message, data } = error as ProtocolError;
  expect({ code, message, data }).toEqual(FROZEN);
}

async function mintToken(client: Client): Promise<string> {
  const first = (await callTool(client, 'asks', { n: 1 })) as unknown as InputRequiredResult;
  runs = {};
  return first.requestState ?? '';
}

describe('inbound requestState on a McpResolveServer', () => {
  it('opens on the exact request it was minted for', async () => {
    const client = await manualClient(buildServer());
    const token = await mintToken(client);
    await expect(callTool(client, 'asks', { n: 1 }, token)).resolves.toMatchObject({ content: [{ text: 'true' }] });
  });

  it.each([
    ['another tool', 'asks_too', { n: 1 }],
    ['other arguments', 'asks', { n: 2 }],
    ['a tool that never mints state', 'plain', {}],
  ])('is refused on %s before anything runs', async (_what, name, args) => {
    const client = await manualClient(buildServer());
    const token = await mintToken(client);
    await expectFrozen(callTool(client, name, args, token));
    expect(runs).toEqual({});
  });

  it('is refused when tampered, before the resolver runs', async () => {
    const client = await manualClient(buildServer());
    const token = await mintToken(client);
    await expectFrozen(callTool(client, 'asks', { n: 1 }, `${token}x`));
    expect(runs).toEqual({});
  });

  it('is refused on prompts/get (another method) before the prompt runs', async () => {
    const client = await manualClient(buildServer());
    const token = await mintToken(client);
    await expectFrozen(
      client.request({
        method: 'prompts/get',
        params: { name: 'greeting', arguments: { who: 'x' }, requestState: token },
      }),
    );
    expect(runs).toEqual({});
  });

  it('is refused on resources/read (another method) before the read runs', async () => {
    const client = await manualClient(buildServer());
    const token = await mintToken(client);
    await expectFrozen(
      client.request({ method: 'resources/read', params: { uri: 'test://notes', requestState: token } }),
    );
    expect(runs).toEqual({});
  });

  it('treats requestState: null as absent', async () => {
    const client = await manualClient(buildServer());
    const result = await client.request({
      method: 'tools/call',
      params: { name: 'plain', arguments: {}, requestState: null },
    });
    expect(result).toMatchObject({ content: [{ text: 'plain' }] });
  });
});
