/**
 * Telemetry reports the client's id of a request (`jsonrpc.request.id`) on the modern lane, whose
 * connection renumbers requests: a library tool's `tools/call` span and the SERVER span of a
 * `tools/list`, for two concurrent clients whose ids are equal. Real SDK clients over `serveHttp`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { McpResolveServer } from '../../src/index.js';
import { serveHttp } from '../../src/node/index.js';
import type { TestConnection } from '../../src/testing/index.js';
import { connectRecordingIds } from '../fixtures/idRecordingClient.js';
import { recording, serverSpans } from './helpers.js';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** A modern client recording the method and id of each `tools/call` and `tools/list` it sends, as `method id`. */
async function clientOf(url: URL): Promise<{ connection: TestConnection; sent: string[] }> {
  const { connection, sent } = await connectRecordingIds(url, ['tools/call', 'tools/list']);
  cleanups.push(() => connection.close());
  return {
    connection,
    get sent() {
      return sent.map(({ method, id }) => `${method} ${String(id)}`);
    },
  };
}

describe('the request id telemetry reports on the modern lane', () => {
  it("is the client's, for two concurrent clients whose ids are equal", async () => {
    const recorded = recording();
    cleanups.push(() => recorded.shutdown());
    let inside = 0;
    let release!: () => void;
    const together = new Promise<void>((resolve) => (release = resolve));
    const server = new McpResolveServer({ name: 'ids', version: '0.0.0' }, { telemetry: recorded.telemetry }).tool(
      'wait',
      { input: { tag: z.string() } },
      async () => {
        if (++inside === 2) release();
        await together;
        return 'done';
      },
    );
    const handle = await serveHttp(server, { port: 0 });
    cleanups.push(() => handle.close());
    const alice = await clientOf(handle.url);
    const bob = await clientOf(handle.url);
    await Promise.all(
      [alice, bob].map(({ connection }) => connection.client.callTool({ name: 'wait', arguments: { tag: 'x' } })),
    );
    await Promise.all([alice, bob].map(({ connection }) => connection.client.listTools()));
    const reported = serverSpans(recorded.spans())
      .filter(
        (span) =>
          span.attributes['mcp.method.name'] === 'tools/call' || span.attributes['mcp.method.name'] === 'tools/list',
      )
      .map((span) => `${String(span.attributes['mcp.method.name'])} ${String(span.attributes['jsonrpc.request.id'])}`);
    const sent = [...alice.sent, ...bob.sent];
    // Their first calls were in flight together under the same id: the lane's connection renumbered one.
    const firstCall = (entries: string[]) => entries.find((entry) => entry.startsWith('tools/call'));
    expect(firstCall(alice.sent)).toBe(firstCall(bob.sent));
    expect(reported.sort()).toEqual(sent.sort());
  });
});
