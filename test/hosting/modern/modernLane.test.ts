/**
 * The modern lane: modern requests served by one long-lived instance over one multiplexing
 * transport. One instance for many calls; concurrent calls with equal JSON-RPC ids kept apart (own
 * `authInfo`, own answer, the client's id back); a client that leaves cancels its own call only;
 * notifications before the result make the SDK's event stream; the SDK's 400 for `-32021`; and
 * everything the lane cannot serve exactly as the SDK's hosting would is left to it.
 */
import type { AuthInfo, McpServer as McpServerType } from '@modelcontextprotocol/server';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import type { Gate } from '../fixtures/modernCalls.js';
import { gatedServer, toolCallHeaders, until } from '../fixtures/modernCalls.js';

import { createRefundDesk } from '../../../examples/stories/refund-desk/desk.js';
import type { HostedPost, Reply } from '../../../src/hosting/exchange.js';
import { JsonReply, toResponse } from '../../../src/hosting/exchange.js';
import { createModernLane } from '../../../src/hosting/modern/modernLane.js';
import { MODERN_REVISION } from '../../../src/protocol.js';
import { primeModernInstance } from '../../../src/sdkSeams/modernInstance.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'lane-test', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Call {
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
}

/** A modern `tools/call` (JSON-RPC id 1 every time, as separate clients send) with its standard headers. */
function toolCall(name: string, args: Record<string, unknown>, meta: Record<string, unknown> = META): Call {
  return {
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta } },
    headers: toolCallHeaders(name),
  };
}

/** The body-less `Request` the hosting hands the lane (the body is already parsed). */
const requestOf = (call: Call, signal?: AbortSignal): Request =>
  new Request('http://127.0.0.1/mcp', { method: 'POST', headers: call.headers, ...(signal && { signal }) });

/** The POST the hosting hands the lane: `call` with `authInfo`, the client's leaving said by the request's `signal`. */
const postOf = (call: Call, authInfo: AuthInfo | undefined, signal?: AbortSignal): HostedPost => ({
  request: requestOf(call, signal),
  parsedBody: call.body,
  authInfo,
  clientLeft: undefined,
  client: undefined,
});

const auth = (clientId: string): AuthInfo => ({ token: clientId, clientId, scopes: [] });

/** A reply as its status and parsed JSON body. */
async function answerOf(reply: Reply | undefined): Promise<{ status: number; body: Record<string, unknown> }> {
  if (reply === undefined) throw new Error('the lane left the request to the SDK');
  const response = toResponse(reply);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const textOf = (body: Record<string, unknown>): string =>
  (body as { result?: { content?: Array<{ text?: string }> } }).result?.content?.[0]?.text ?? JSON.stringify(body);

/** `create`, counting the instances it builds. */
function counting(create: () => McpServerType): { create: () => McpServerType; built: () => number } {
  let built = 0;
  return {
    create: () => {
      built++;
      return create();
    },
    built: () => built,
  };
}

/** A lane over instances of `create`, each made modern as `McpResolveServer.instanceReuse` makes them. */
const laneOf = (create: () => McpServerType) => createModernLane(() => primeModernInstance(create(), MODERN_REVISION));

describe('the modern lane', () => {
  it('serves call after call on one instance, every answer right', async () => {
    const desk = counting(createRefundDesk().createServer);
    const lane = laneOf(desk.create);
    for (let round = 0; round < 5; round++) {
      const call = toolCall('refund_order', { order_id: 'ORD-7001', reason: 'download corrupted' });
      const { status, body } = await answerOf(await lane.serve(postOf(call, undefined)));
      expect(status).toBe(200);
      expect(body.id).toBe(1);
      expect(JSON.parse(textOf(body))).toMatchObject({ order_id: 'ORD-7001', refunded_cents: 1500 });
    }
    await lane.close();
    expect(desk.built()).toBe(1);
  });

  it('keeps concurrent calls with equal ids apart: each its own authInfo, its own answer, its id back', async () => {
    const gates = new Map<string, Gate>();
    const lane = laneOf(gatedServer(gates));
    const a = toolCall('who', { tag: 'a' });
    const b = toolCall('who', { tag: 'b' });
    const alice = lane.serve(postOf(a, auth('alice')));
    const bob = lane.serve(postOf(b, auth('bob')));
    await until(() => gates.size === 2);
    // The parsed bodies the hosting handed over are left as they were: the instance renumbers a copy.
    expect([a.body.id, b.body.id]).toEqual([1, 1]);
    gates.get('b')?.release();
    const bobs = await answerOf(await bob);
    expect([bobs.body.id, textOf(bobs.body)]).toEqual([1, 'b:bob']);
    gates.get('a')?.release();
    const alices = await answerOf(await alice);
    expect([alices.body.id, textOf(alices.body)]).toEqual([1, 'a:alice']);
    expect(a.body.id).toBe(1);
    await lane.close();
  });

  it('cancels the call of a client that leaves, and only that call', async () => {
    const gates = new Map<string, Gate>();
    const lane = laneOf(gatedServer(gates));
    const leaving = new AbortController();
    const gone = toolCall('who', { tag: 'gone' });
    const stays = toolCall('who', { tag: 'stays' });
    const left = lane.serve(postOf(gone, auth('mallory'), leaving.signal));
    const staying = lane.serve(postOf(stays, auth('alice')));
    await until(() => gates.size === 2);
    leaving.abort();
    expect(toResponse((await left) as Reply).status).toBe(499);
    await until(() => gates.get('gone')?.signal.aborted === true);
    expect(gates.get('stays')?.signal.aborted).toBe(false);
    gates.get('stays')?.release();
    expect(textOf((await answerOf(await staying)).body)).toBe('stays:alice');
    await lane.close();
  });

  it('ends calls in flight when it closes (499), their handlers aborted', async () => {
    const gates = new Map<string, Gate>();
    const lane = laneOf(gatedServer(gates));
    const call = toolCall('who', { tag: 'late' });
    const pending = lane.serve(postOf(call, undefined));
    await until(() => gates.size === 1);
    await lane.close();
    expect(toResponse((await pending) as Reply).status).toBe(499);
    expect(gates.get('late')?.signal.aborted).toBe(true);
    expect(await lane.serve(postOf(call, undefined))).toBeUndefined();
  });

  it('closes when idle once its calls in flight have ended, answering them; later ones are left to the SDK hosting', async () => {
    const gates = new Map<string, Gate>();
    const lane = laneOf(gatedServer(gates));
    const call = toolCall('who', { tag: 'finishing' });
    const pending = lane.serve(postOf(call, undefined));
    await until(() => gates.size === 1);
    const closed = lane.closeWhenIdle();
    expect(await lane.serve(postOf(call, undefined))).toBeUndefined();
    gates.get('finishing')?.release();
    expect(textOf((await answerOf(await pending)).body)).toBe('finishing:anonymous');
    await closed;
    expect(await lane.serve(postOf(call, undefined))).toBeUndefined();
  });

  it('streams notifications sent before the result as the SDK does, the result last', async () => {
    const create = () => {
      const server = new McpServer({ name: 'lane-test', version: '0.0.0' }, { capabilities: { tools: {} } });
      server.registerTool('steps', { inputSchema: z.object({}) }, async (_args, ctx) => {
        const progressToken = ctx.mcpReq._meta?.progressToken ?? 0;
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: 1, total: 2 } });
        return { content: [{ type: 'text', text: 'done' }] };
      });
      return server;
    };
    const call = toolCall('steps', {}, { ...META, progressToken: 'p-1' });
    const lane = laneOf(create);
    const laned = toResponse((await lane.serve(postOf(call, undefined))) as Reply);
    const sdk = await createMcpHandler(create, { legacy: 'reject' }).fetch(requestOf(call), { parsedBody: call.body });
    expect(laned.status).toBe(sdk.status);
    expect(Object.fromEntries(laned.headers)).toEqual(Object.fromEntries(sdk.headers));
    expect(await laned.text()).toBe(await sdk.text());
    await lane.close();
  });

  it("answers a missing client capability with the SDK transport's 400", async () => {
    const create = () => {
      const server = new McpServer({ name: 'lane-test', version: '0.0.0' }, { capabilities: { tools: {} } });
      server.registerTool('asks', { inputSchema: z.object({}) }, () => ({
        resultType: 'input_required' as const,
        inputRequests: {
          ok: {
            method: 'elicitation/create',
            params: { mode: 'form', message: 'OK?', requestedSchema: { type: 'object', properties: {} } },
          },
        },
      }));
      return server;
    };
    const call = toolCall('asks', {});
    const lane = laneOf(create);
    const laned = await lane.serve(postOf(call, undefined));
    expect(laned).toBeInstanceOf(JsonReply);
    const sdk = await createMcpHandler(create, { legacy: 'reject' }).fetch(requestOf(call), { parsedBody: call.body });
    expect(sdk.status).toBe(400);
    expect(await answerOf(laned)).toEqual({ status: 400, body: await sdk.json() });
    await lane.close();
  });

  it("hands back a request the instance cannot read as a request (its _meta fails the SDK's schema)", async () => {
    const gates = new Map<string, Gate>();
    const lane = laneOf(gatedServer(gates));
    // A related-task that is not an object: laneRequest takes it, the instance reports it to onerror and answers nothing.
    const call = toolCall('who', { tag: 'odd' }, { ...META, 'io.modelcontextprotocol/related-task': 5 });
    const left = new AbortController();
    const served = lane.serve(postOf(call, undefined, left.signal));
    // The client leaves before the lane delivers it: a request kept on the lane would get the 499 of a client that left.
    left.abort();
    expect(await served).toBeUndefined();
    const sdk = await createMcpHandler(gatedServer(gates), { legacy: 'reject' }).fetch(requestOf(call), {
      parsedBody: call.body,
    });
    expect(sdk.status).toBe(400);
    expect(gates.size).toBe(0);
    await lane.close();
  });

  it('leaves every request to the SDK hosting when its instance cannot be prepared', async () => {
    const lane = createModernLane(() => Promise.reject(new Error('no instance')));
    const call = toolCall('who', { tag: 'a' });
    expect(await lane.serve(postOf(call, undefined))).toBeUndefined();
    expect(await lane.serve(postOf(call, undefined))).toBeUndefined();
    await lane.close();
  });
});
