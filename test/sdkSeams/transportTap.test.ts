/**
 * Pins of the SDK behaviour `src/sdkSeams/transportTap.ts` relies on, on a plain SDK `McpServer`
 * (no library code): `connect` keeps a `transport.onmessage` set before it and calls it first with
 * each message, before the instance handles it; and the instance sends its responses through the
 * transport's `send` property as it is when it sends. Fails first if an SDK release changes either
 * (see contributing/sdk-seams.md).
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

/** A transport that keeps what the instance sends through its own `send`. */
function keepingTransport(): Transport & { readonly sent: JSONRPCMessage[]; answered: Promise<void> } {
  const sent: JSONRPCMessage[] = [];
  let answer!: () => void;
  return {
    sent,
    answered: new Promise((resolve) => (answer = resolve)),
    async start() {},
    async close() {},
    async send(message) {
      sent.push(message);
      answer();
    },
  };
}

describe("an SDK instance's transport, tapped before connect", () => {
  it('calls the onmessage set before connect first, then handles the message; answers through the send set before connect', async () => {
    const server = new McpServer({ name: 'pin', version: '0.0.0' });
    const transport = keepingTransport();
    const order: string[] = [];
    transport.onmessage = (message) => order.push(`tap saw ${'method' in message ? message.method : 'a response'}`);
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      order.push(`tap saw ${'result' in message ? 'the result' : 'something else'}`);
      return send(message, options);
    };
    await server.connect(transport);
    transport.onmessage?.({ jsonrpc: '2.0', id: 1, method: 'ping' });
    order.push('onmessage returned');
    await transport.answered;
    expect(order).toEqual(['tap saw ping', 'onmessage returned', 'tap saw the result']);
    expect(transport.sent).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });
});
