/**
 * What the modern lane takes, and that the client cannot tell: every request below is answered by
 * the hosting with the lane (a `McpResolveServer`) exactly as by the hosting without it (the same
 * server behind a plain factory: the SDK's `createMcpHandler`, an instance per request): same
 * status, same body. Requests the lane must leave to the SDK's hosting are refused by
 * `laneRequest`, or handed back by the instance before any handler runs.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';

import { createRefundDesk } from '../../../examples/stories/refund-desk/desk.js';
import { createDualEraHandler } from '../../../src/hosting/index.js';
import { laneRequest } from '../../../src/hosting/modern/laneRequest.js';

const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const META = { [PV]: '2026-07-28', [CAPS]: {} };
const ARGS = { order_id: 'ORD-7001', reason: 'download corrupted' };

interface Variant {
  readonly name: string;
  /** Whether `laneRequest` takes it (the instance may still hand it back). */
  readonly taken: boolean;
  readonly body: unknown;
  readonly headers?: Record<string, string | undefined>;
}

const call = (params: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'refund_order', arguments: ARGS, _meta: META, ...params },
  ...extra,
});
const HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'refund_order' };
/** A request of `method` with nothing but the envelope, and the headers it takes. */
const bare = (name: string, taken: boolean, method: string): Variant => ({
  name,
  taken,
  body: { jsonrpc: '2.0', id: 1, method, params: { _meta: META } },
  headers: { 'mcp-method': method, 'mcp-name': undefined },
});
const base64 = (text: string) => `=?base64?${Buffer.from(text).toString('base64')}?=`;

const VARIANTS: readonly Variant[] = [
  { name: 'a well-formed call', taken: true, body: call() },
  { name: 'a call with a string id', taken: true, body: { ...call(), id: 'req-7' } },
  { name: 'headers with optional whitespace', taken: true, body: call(), headers: { 'mcp-method': ' tools/call\t' } },
  {
    name: 'an unknown tool',
    taken: true,
    body: call({ name: 'no_such_tool' }),
    headers: { 'mcp-name': 'no_such_tool' },
  },
  { name: 'arguments of the wrong type', taken: true, body: call({ arguments: { order_id: 5 } }) },
  bare('tools/list', true, 'tools/list'),
  {
    name: 'an envelope whose capabilities are not an object',
    taken: true,
    body: call({ _meta: { ...META, [CAPS]: 'all' } }),
  },
  { name: 'an envelope without capabilities', taken: true, body: call({ _meta: { [PV]: '2026-07-28' } }) },
  { name: 'no Mcp-Method header', taken: false, body: call(), headers: { 'mcp-method': undefined } },
  {
    name: 'an Mcp-Method header naming another method',
    taken: false,
    body: call(),
    headers: { 'mcp-method': 'tools/list' },
  },
  {
    name: 'no MCP-Protocol-Version header',
    taken: false,
    body: call(),
    headers: { 'mcp-protocol-version': undefined },
  },
  {
    name: 'a header version the body does not name',
    taken: false,
    body: call(),
    headers: { 'mcp-protocol-version': '2025-11-25' },
  },
  { name: 'no Mcp-Name header', taken: false, body: call(), headers: { 'mcp-name': undefined } },
  { name: 'an Mcp-Name header naming another tool', taken: false, body: call(), headers: { 'mcp-name': 'other' } },
  { name: 'an encoded Mcp-Name header', taken: false, body: call(), headers: { 'mcp-name': base64('refund_order') } },
  {
    name: 'a revision the lane does not serve',
    taken: false,
    body: call({ _meta: { ...META, [PV]: '2027-01-01' } }),
    headers: { 'mcp-protocol-version': '2027-01-01' },
  },
  { name: 'a member beside the request', taken: false, body: call({}, { extra: true }) },
  { name: 'a fractional id', taken: false, body: { ...call(), id: 1.5 } },
  { name: 'a null id', taken: false, body: { ...call(), id: null } },
  {
    name: 'no id (a notification)',
    taken: false,
    body: { jsonrpc: '2.0', method: 'tools/call', params: call().params },
  },
  { name: 'jsonrpc 1.0', taken: false, body: { ...call(), jsonrpc: '1.0' } },
  { name: 'a progress token that is an object', taken: false, body: call({ _meta: { ...META, progressToken: {} } }) },
  bare('server/discover', false, 'server/discover'),
  bare('a method the era lacks', false, 'tools/frobnicate'),
  { name: 'a batch', taken: false, body: [call()] },
];

function headersOf(variant: Variant): Headers {
  const headers = new Headers({
    host: '127.0.0.1',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  });
  for (const [name, value] of Object.entries({ ...HEADERS, ...variant.headers }))
    if (value !== undefined) headers.set(name, value);
  return headers;
}

const post = (variant: Variant): Request =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: headersOf(variant),
    body: JSON.stringify(variant.body),
  });

/** What a client sees: the status, and the body as JSON (or text). */
async function seen(response: Response): Promise<{ status: number; body: unknown }> {
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

describe('laneRequest', () => {
  it.each(VARIANTS)('$name: taken by the rule as it should be', async (variant) => {
    const lane = { instance: createRefundDesk().createServer(), mirrors: new Map<string, boolean>() };
    const taken = await laneRequest(lane, headersOf(variant), structuredClone(variant.body), undefined);
    expect(taken !== undefined).toBe(variant.taken);
  });

  it('answers every variant as the SDK hosting without the lane does', async () => {
    const desk = createRefundDesk();
    const laned = createDualEraHandler(desk);
    const plain = createDualEraHandler(() => desk.createServer());
    const statuses = new Set<number>();
    try {
      for (const variant of VARIANTS) {
        const mine = await seen(await laned.fetch(post(variant)));
        const theirs = await seen(await plain.fetch(post(variant)));
        expect({ variant: variant.name, ...mine }).toEqual({ variant: variant.name, ...theirs });
        statuses.add(mine.status);
      }
      // Served (200), refused by the SDK's ladder (400, 404) and accepted as a notification (202).
      expect([...statuses].sort()).toEqual([200, 202, 400, 404]);
    } finally {
      await Promise.all([laned.close(), plain.close()]);
    }
  });

  it('serves the calls it takes without connecting an instance per request', async () => {
    const connects = vi.spyOn(McpServer.prototype, 'connect');
    const handler = createDualEraHandler(createRefundDesk());
    try {
      for (let round = 0; round < 5; round++)
        expect((await handler.fetch(post(VARIANTS[0] as Variant))).status).toBe(200);
      // One connection to prepare the lane's instance (the SDK's own server/discover), one to the lane's transport.
      expect(connects).toHaveBeenCalledTimes(2);
    } finally {
      connects.mockRestore();
      await handler.close();
    }
  });
});
