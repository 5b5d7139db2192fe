/**
 * One anonymous client cannot use up the pages of every other: a page counts against the address
 * its host saw the request come from (`maxPagesPerClient`), so a client past its quota is refused
 * while another address still gets its page, on both eras; behind a proxy the host cannot see past
 * (a forwarding header from a private address, no `clientAddress` option) a page counts against no
 * client, as legacy sessions do there. In process, through `createDualEraHandler` with the
 * socket address each request came from.
 */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';

import type { Era } from '../../src/context.js';
import { createMemoryAnswerPageBackend } from '../../src/pageStore/memoryBackend.js';
import type { DualEraHandler } from '../../src/hosting/dualEraHandler.js';
import { createDualEraHandler } from '../../src/hosting/dualEraHandler.js';
import type { TestConnection } from '../../src/testing/index.js';
import { connectHttp } from '../../src/testing/index.js';
import { refundServer } from './refundServer.js';

const ENDPOINT = new URL('http://localhost/mcp');
const ERAS: readonly Era[] = ['modern', 'legacy'];
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** A server whose page backend lets each client hold two pages. */
function served(): DualEraHandler {
  const backend = createMemoryAnswerPageBackend({ maxPagesPerClient: 2 });
  const handler = createDualEraHandler(refundServer({ backend }));
  open.push(handler);
  return handler;
}

/** A URL-only client of `handler` on `era`, whose requests come from `address` with `headers`; it never opens the page. */
async function clientFrom(
  handler: DualEraHandler,
  era: Era,
  address: string,
  headers: Record<string, string> = {},
): Promise<TestConnection> {
  const elicit = async (params: ElicitRequest['params']): Promise<ElicitResult> =>
    params.mode === 'url' ? { action: 'decline' } : { action: 'cancel' };
  const connection = await connectHttp(ENDPOINT, {
    era,
    capabilities: { elicitation: { url: {} } },
    elicit,
    transportOptions: {
      fetch: (input, init) => {
        const request = new Request(input, init);
        request.headers.set('host', ENDPOINT.host);
        for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
        return handler.fetch(request, { clientAddress: address });
      },
    },
  });
  open.push(connection);
  return connection;
}

/** Calls `refund` for `order`: the text of its result, or of the error that ended it. */
async function refund(connection: TestConnection, order: string): Promise<string> {
  try {
    const result = await connection.client.callTool({ name: 'refund', arguments: { order_id: order } });
    return JSON.stringify(result);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

describe('pages per anonymous client', () => {
  it.each(ERAS)('%s: a client past its quota is refused; another address still gets its page', async (era) => {
    const handler = served();
    const flooder = await clientFrom(handler, era, '198.51.100.7');
    const outcomes = [];
    for (const order of ['A-1', 'A-2', 'A-3']) outcomes.push(await refund(flooder, order));
    expect(outcomes.slice(0, 2).every((text) => !text.includes('maxPagesPerClient'))).toBe(true);
    expect(outcomes[2]).toMatch(/maxPagesPerClient/);
    const other = await clientFrom(handler, era, '203.0.113.9');
    const otherOutcome = await refund(other, 'B-1');
    expect(otherOutcome).not.toMatch(/maxPagesPerClient/);
    expect(otherOutcome).toMatch(/declin/i);
  });

  it('behind a proxy it cannot see past, a page counts against no client', async () => {
    const handler = served();
    const behindProxy = await clientFrom(handler, 'modern', '10.0.0.2', { 'x-forwarded-for': '198.51.100.7' });
    const outcomes = [];
    for (const order of ['P-1', 'P-2', 'P-3']) outcomes.push(await refund(behindProxy, order));
    expect(outcomes.some((text) => text.includes('maxPagesPerClient'))).toBe(false);
  });
});
