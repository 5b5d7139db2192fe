/**
 * The `authenticate` hook of `serveHttp`, fed the SDK's own `requireBearerAuth`: an unauthenticated
 * request is answered by the hook, and the caller's principal is bound into the sealed
 * `requestState`, so one caller's state is refused when another presents it.
 */
import { isInputRequiredResult, requireBearerAuth } from '@modelcontextprotocol/server';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import type { HttpServerHandle } from '../../src/node/index.js';
import { serveHttp } from '../../src/node/index.js';
import { verifier } from '../stories/deskLogin.js';
import { connectBearer } from '../fixtures/bearerNames.js';

const handles: HttpServerHandle[] = [];
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

async function serve(): Promise<URL> {
  const handle = await serveHttp(createRefundDesk().createServer, { authenticate: requireBearerAuth({ verifier }) });
  handles.push(handle);
  return handle.url;
}

/** {@link connectBearer}, closed after the test. */
async function connectAs(url: URL, token: string): Promise<Client> {
  const client = await connectBearer(url, token);
  clients.push(client);
  return client;
}

const ARGS = { order_id: 'ORD-7002', reason: 'arrived broken' };

/** Round 1 of the desk's full flow as `client`: its question key and sealed state. */
async function firstRound(client: Client): Promise<{ key: string; requestState: string }> {
  const result: unknown = await client.request(
    { method: 'tools/call', params: { name: 'refund_order', arguments: ARGS } },
    { allowInputRequired: true },
  );
  if (!isInputRequiredResult(result) || result.requestState === undefined) throw new Error('round 1 should ask');
  return { key: Object.keys(result.inputRequests ?? {})[0] ?? '', requestState: result.requestState };
}

function secondRound(client: Client, key: string, requestState: string): Promise<unknown> {
  return client.request(
    {
      method: 'tools/call',
      params: {
        name: 'refund_order',
        arguments: ARGS,
        requestState,
        inputResponses: { [key]: { action: 'accept', content: { full: true } } },
      },
    },
    { allowInputRequired: true },
  );
}

describe('serveHttp authenticate', () => {
  it('answers a request without a valid token with the hook’s 401 challenge', async () => {
    const url = await serve();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('binds the state to the caller: the same caller continues, another is refused', async () => {
    const url = await serve();
    const alice = await connectAs(url, 'alice-token');
    const bob = await connectAs(url, 'bob-token');
    const stolen = await firstRound(alice);
    await expect(secondRound(bob, stolen.key, stolen.requestState)).rejects.toThrow('Invalid or expired requestState');
    const own = await firstRound(alice);
    const continued = await secondRound(alice, own.key, own.requestState);
    expect(isInputRequiredResult(continued)).toBe(true);
  });
});
