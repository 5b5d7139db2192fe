/**
 * Pins of the SDK behaviour the modern lane relies on (`src/sdkSeams/modernInstance.ts`; its
 * instance's `server.onerror` in `src/hosting/modern/modernLane.ts` and the hand-back of
 * `ExchangeMux`), on a plain SDK `McpServer` (no library code): an instance that has served one
 * modern request through `createMcpHandler` (its exchange closed, `Server.onclose` called) can be
 * connected to another modern transport and serves modern requests there; `Server.onerror` is
 * called synchronously, inside the transport's `onmessage`, for a message the instance cannot
 * take; and a request it refuses before any handler runs is answered through the transport's
 * `send` synchronously, inside `onmessage`. Each test fails first if an SDK release changes what
 * it pins (see contributing/sdk-seams.md).
 */
import type { JSONRPCMessage, MessageClassification } from '@modelcontextprotocol/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  McpServer,
  PerRequestHTTPServerTransport,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const REVISION = '2026-07-28';
const CLASSIFICATION: MessageClassification = { era: 'modern', revision: REVISION };
const ENVELOPE = { [PROTOCOL_VERSION_META_KEY]: REVISION, [CLIENT_CAPABILITIES_META_KEY]: {} };

/** A modern transport that keeps what the instance sends, as the lane's transport does. */
class KeepingTransport extends PerRequestHTTPServerTransport {
  readonly sent: JSONRPCMessage[] = [];
  #waiting: { count: number; resolve: () => void } | undefined;
  constructor() {
    super({ classification: CLASSIFICATION });
  }
  override async start(): Promise<void> {}
  override async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    if (this.#waiting !== undefined && this.sent.length >= this.#waiting.count) this.#waiting.resolve();
  }
  /** Resolves once `count` messages have been sent. */
  until(count: number): Promise<void> {
    if (this.sent.length >= count) return Promise.resolve();
    return new Promise((resolve) => (this.#waiting = { count, resolve }));
  }
}

/** A plain SDK server with one tool. */
function echoServer(): McpServer {
  const server = new McpServer({ name: 'pin', version: '0.0.0' });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

/** Serves one `server/discover` to `instance` through `createMcpHandler`; resolves with the status once its exchange closed. */
async function discoverThroughSdkHosting(instance: McpServer): Promise<number> {
  const closed = new Promise<void>((resolve) => (instance.server.onclose = resolve));
  const discover = { jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: ENVELOPE } };
  const headers = {
    'content-type': 'application/json',
    'mcp-protocol-version': REVISION,
    'mcp-method': 'server/discover',
  };
  const request = new Request('http://pin.invalid/mcp', { method: 'POST', headers });
  const response = await createMcpHandler(() => instance, { legacy: 'reject' }).fetch(request, {
    parsedBody: discover,
  });
  await response.body?.cancel();
  await closed;
  return response.status;
}

const call = (id: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: `call ${id}` }, _meta: ENVELOPE },
});

describe("an instance made modern by the SDK's hosting", () => {
  it('calls onclose when its createMcpHandler exchange closes, then serves modern requests on a transport of its own', async () => {
    const instance = echoServer();
    expect(await discoverThroughSdkHosting(instance)).toBe(200);
    const transport = new KeepingTransport();
    await instance.connect(transport);
    const request = new Request('http://pin.invalid/mcp', { method: 'POST' });
    for (const id of [1, 2]) transport.onmessage?.(call(id), { classification: CLASSIFICATION, request });
    await transport.until(2);
    const texts = transport.sent.map((message) => ({
      id: 'id' in message ? message.id : undefined,
      result: 'result' in message ? message.result.content : undefined,
    }));
    expect(texts).toEqual([1, 2].map((id) => ({ id, result: [{ type: 'text', text: `call ${id}` }] })));
  });

  it('reports a message it cannot take to onerror synchronously, inside onmessage', async () => {
    const instance = echoServer();
    await discoverThroughSdkHosting(instance);
    const transport = new KeepingTransport();
    await instance.connect(transport);
    const reported: string[] = [];
    instance.server.onerror = (error) => reported.push(error.message);
    transport.onmessage?.({ jsonrpc: '2.0', unknown: true } as unknown as JSONRPCMessage, {
      classification: CLASSIFICATION,
    });
    expect(reported).toHaveLength(1);
  });

  it('answers a request it refuses before any handler runs through send synchronously, inside onmessage', async () => {
    const instance = echoServer();
    await discoverThroughSdkHosting(instance);
    const transport = new KeepingTransport();
    await instance.connect(transport);
    const request = new Request('http://pin.invalid/mcp', { method: 'POST' });
    const refused: JSONRPCMessage[] = [
      // No handler: the server registers no prompt.
      { jsonrpc: '2.0', id: 1, method: 'prompts/list', params: { _meta: ENVELOPE } },
      // An envelope without the client's capabilities.
      {
        ...call(2),
        params: { name: 'echo', arguments: { text: 'x' }, _meta: { [PROTOCOL_VERSION_META_KEY]: REVISION } },
      },
    ];
    const answeredInside = refused.map((message) => {
      const before = transport.sent.length;
      transport.onmessage?.(message, { classification: CLASSIFICATION, request });
      return transport.sent
        .slice(before)
        .map((sent) => ('error' in sent ? { id: sent.id, code: sent.error.code } : sent));
    });
    expect(answeredInside).toEqual([[{ id: 1, code: -32601 }], [{ id: 2, code: -32602 }]]);
  });
});
