/**
 * A SERVER span for every inbound message, as the reference SDK (Python `mcp` 2.3.0,
 * `mcp/server/_otel.py`) makes one: lists, prompts, resource reads, a tool registered in `setup()`,
 * `initialize` and notifications, with the reference's names and attributes, over HTTP on both eras.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { elicit, McpResolveServer, resolver } from '../../src/index.js';
import { serveHttp } from '../../src/node/index.js';
import { connectHttp } from '../../src/testing/index.js';
import { exportedValues, recording, serverSpans } from './helpers.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const PROTOCOL = { modern: '2026-07-28', legacy: '2025-11-25' } as const;
/** Part of the resource's URI: the reference names a read's span without it, and so do we. */
const URI_PART = 'private-folder';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

function desk(telemetry: ReturnType<typeof recording>['telemetry']): McpResolveServer {
  const topic = resolver({ name: 'topic' }, () => elicit('Which topic?', z.object({ topic: z.string() })));
  return new McpResolveServer({ name: 'served', version: '1' }, { telemetry })
    .tool('greet', { input: { who: z.string() } }, ({ who }) => `hi ${who}`)
    .prompt('brief', { args: { order: z.string() } }, ({ order }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `brief ${order}` } }],
    }))
    .prompt('asked', { resolve: { t: topic } }, ({ t }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: t.topic } }],
    }))
    .resource('notes', `note://${URI_PART}/42`, { mimeType: 'text/plain' }, (uri) => ({
      contents: [{ uri: uri.href, text: 'note' }],
    }))
    .setup((mcp) => {
      mcp.registerTool('raw_fail', { description: 'Fails through the SDK registry.' }, () => ({
        content: [{ type: 'text', text: 'no' }],
        isError: true,
      }));
    });
}

function named(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return serverSpans(spans).filter((span) => span.name === name);
}

describe.each(['modern', 'legacy'] as const)('SERVER spans of every inbound message on the %s era', (era) => {
  it('names and attributes each request as the reference does, continuing _meta trace context', async () => {
    const recorded = recording();
    cleanups.push(() => recorded.shutdown());
    const handle = await serveHttp(desk(recorded.telemetry), { port: 0 });
    cleanups.push(() => handle.close());
    const connection = await connectHttp(handle.url, {
      era,
      elicit: () => ({ action: 'accept', content: { topic: 'refunds' } }),
    });
    cleanups.push(() => connection.close());
    const { client } = connection;

    await client.listTools({ _meta: { traceparent: `00-${TRACE}-${PARENT}-01` } });
    await client.listPrompts();
    await client.getPrompt({ name: 'brief', arguments: { order: 'ORD-1' } });
    await client.getPrompt({ name: 'asked' });
    await client.readResource({ uri: `note://${URI_PART}/42` });
    expect((await client.callTool({ name: 'raw_fail', arguments: {} })).isError).toBe(true);
    expect((await client.callTool({ name: 'greet', arguments: { who: 'ada' } })).isError).toBeFalsy();
    await expect(client.getPrompt({ name: 'missing' })).rejects.toMatchObject({ code: -32602 });
    const spans = recorded.spans();

    const [list] = named(spans, 'tools/list');
    expect(named(spans, 'tools/list')).toHaveLength(1);
    expect(list?.attributes).toMatchObject({
      'mcp.method.name': 'tools/list',
      'mcp.protocol.version': PROTOCOL[era],
      'mcp_resolve.era': era,
    });
    expect(list?.attributes['jsonrpc.request.id']).toEqual(expect.any(String));
    expect(list?.spanContext().traceId).toBe(TRACE);
    expect(list?.parentSpanContext?.spanId).toBe(PARENT);

    expect(named(spans, 'prompts/list')).toHaveLength(1);
    const [brief] = named(spans, 'prompts/get brief');
    expect(brief?.attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'brief' });
    expect(brief?.attributes).not.toHaveProperty('gen_ai.tool.name');
    // A prompt whose resolver asks: its rounds (one request with a push on legacy, two on modern) are traced like a call's.
    const asked = named(spans, 'prompts/get asked');
    expect(asked.map((span) => span.attributes['mcp_resolve.round'])).toEqual(era === 'modern' ? [1, 2] : [1]);
    expect(new Set(asked.map((span) => span.spanContext().traceId)).size).toBe(1);

    expect(named(spans, 'resources/read')).toHaveLength(1);
    const leaked = exportedValues(spans, []).filter(([, value]) => String(value).includes(URI_PART));
    expect(leaked).toEqual([]);

    const [raw] = named(spans, 'tools/call raw_fail');
    expect(raw?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'raw_fail',
      'error.type': 'tool_error',
    });
    expect(named(spans, 'tools/call greet')).toHaveLength(1);

    const [missing] = named(spans, 'prompts/get missing');
    expect(missing?.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(missing?.status.code).toBe(2);

    if (era === 'legacy') {
      expect(named(spans, 'initialize')).toHaveLength(1);
      const [initialized] = named(spans, 'notifications/initialized');
      expect(initialized?.attributes).toMatchObject({ 'mcp.method.name': 'notifications/initialized' });
      expect(initialized?.attributes).not.toHaveProperty('jsonrpc.request.id');
    }
  });
});
