/** resolvers.md §11 [K]: on legacy connections questions are real pushes within the call; one definition serves both eras. */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { elicit, listRoots, McpResolveError, McpResolveServer, outcome, resolver, sample } from 'mcp-resolve';
import { serveHttp } from 'mcp-resolve/node';
import { connectHttp } from 'mcp-resolve/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { createRefundDesk } from '../../examples/stories/refund-desk/desk.js';
import { openLegacySession, post, send, SseReader } from '../../scripts/lib/wire.js';
import { call, connect, INFO, newServer, onCleanup, sampled, sampleText, textOf } from './helpers.js';

const Pick = z.object({ pick: z.string() });

/** A tool with a question of each kind, a dependent question, counting resolver and body runs. */
function countedServer(options?: ConstructorParameters<typeof McpResolveServer>[1]) {
  const runs = { base: 0, name: 0, body: 0 };
  const base = resolver({ name: 'base', args: { id: z.string() } }, ({ id }) => {
    runs.base++;
    return id.toUpperCase();
  });
  const name = resolver({ name: 'name', deps: { base } }, ({ base: b }) => {
    runs.name++;
    return elicit(`Name for ${b}?`, Pick);
  });
  const poem = resolver({ name: 'poem', deps: { name } }, ({ name: n }) =>
    sample({ messages: [{ role: 'user', content: { type: 'text', text: `a poem for ${n.pick}` } }], maxTokens: 10 }),
  );
  const roots = resolver({ name: 'roots' }, () => listRoots());
  const server = (options === undefined ? newServer() : new McpResolveServer(INFO, options)).tool(
    'survey',
    { input: { id: z.string() }, resolve: { base, name, poem, roots, again: outcome(name) } },
    ({ base: b, name: n, poem: p, roots: r }) => {
      runs.body++;
      return `${b} | ${n.pick} | ${sampleText(p)} | ${r.map((root) => root.uri).join(',')}`;
    },
  );
  return { server, runs };
}

describe('legacy pushes (legacy only: pushes are the legacy mechanism)', () => {
  it('[K1] each question is a real server-to-client request sent while the call is pending; resolvers and tool run once', async () => {
    const { server, runs } = countedServer();
    let settled = false;
    const duringCall: boolean[] = [];
    const connection = await connect(server, {
      era: 'legacy',
      elicit: (params) => {
        duringCall.push(!settled);
        return { action: 'accept', content: { pick: params.message.includes('ID-1') ? 'Ann' : '?' } };
      },
      sample: () => {
        duringCall.push(!settled);
        return sampled('roses');
      },
      roots: () => {
        duringCall.push(!settled);
        return { roots: [{ uri: 'file:///work' }] };
      },
    });
    const result = await call(connection, 'survey', { id: 'id-1' }).finally(() => {
      settled = true;
    });
    expect(textOf(result)).toBe('ID-1 | Ann | roses | file:///work');
    expect(duringCall).toEqual([true, true, true]);
    expect(connection.counters.pushes).toBe(3);
    expect(connection.counters.legs).toEqual({ 'tools/call': 1 });
    expect(runs).toEqual({ base: 1, name: 1, body: 1 });
  });

  it("[K1] over Streamable HTTP the push rides the call's own response stream (no GET stream is open)", async () => {
    const { server } = countedServer();
    const served = await serveHttp(server, { port: 0 });
    onCleanup(() => served.close());
    const sessionId = await openLegacySession(
      { url: served.url },
      { elicitation: { form: {} }, sampling: {}, roots: {} },
    );
    const session = { url: served.url, sessionId };
    onCleanup(async () => {
      await send(session, { method: 'DELETE' });
    });
    const response = await post(session, {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'survey', arguments: { id: 'x' } },
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const stream = new SseReader(response);
    onCleanup(() => stream.cancel());
    const answers: Record<string, unknown> = {
      'elicitation/create': { action: 'accept', content: { pick: 'Bo' } },
      'sampling/createMessage': sampled('tulips'),
      'roots/list': { roots: [{ uri: 'file:///srv' }] },
    };
    const methods: unknown[] = [];
    for (;;) {
      const message = await stream.next();
      if (message.id === 7) {
        expect(message).toMatchObject({
          result: { content: [{ type: 'text', text: 'X | Bo | tulips | file:///srv' }] },
        });
        break;
      }
      methods.push(message.method);
      const reply = await post(session, { jsonrpc: '2.0', id: message.id, result: answers[String(message.method)] });
      expect(reply.status).toBe(202);
    }
    // The same order as the modern rounds: name and roots together, then the poem that needs the name.
    expect(methods).toEqual(['elicitation/create', 'roots/list', 'sampling/createMessage']);
  });

  it('[K1] a legacy client over Streamable HTTP (serveHttp + connectHttp) gets one push per question within one leg', async () => {
    const { server, runs } = countedServer();
    const served = await serveHttp(server, { port: 0 });
    onCleanup(() => served.close());
    const connection = await connectHttp(served.url, {
      era: 'legacy',
      elicit: () => ({ action: 'accept', content: { pick: 'Cy' } }),
      sample: () => sampled('lilies'),
      roots: () => ({ roots: [{ uri: 'file:///h' }] }),
    });
    onCleanup(() => connection.close());
    expect(textOf(await call(connection, 'survey', { id: 'h' }))).toBe('H | Cy | lilies | file:///h');
    expect(connection.counters.legs).toEqual({ 'tools/call': 1 });
    expect(connection.counters.pushes).toBe(3);
    expect(runs).toEqual({ base: 1, name: 1, body: 1 });
  });
});

describe('one definition, both eras at once', () => {
  it('[K2] the same tool serves a legacy and a modern client concurrently with the same results, question counts and order', async () => {
    const desk = createRefundDesk();
    const transcript =
      (log: string[]) =>
      (params: ElicitRequest['params']): ElicitResult => {
        log.push(params.message);
        return params.message.includes('Refund the whole order')
          ? { action: 'accept', content: { full: false, sku: 'enamel-mug' } }
          : { action: 'accept', content: { restock: true } };
      };
    const logs: Record<'modern' | 'legacy', string[]> = { modern: [], legacy: [] };
    const modern = await connect(desk, { era: 'modern', elicit: transcript(logs.modern) });
    const legacy = await connect(desk, { era: 'legacy', elicit: transcript(logs.legacy) });
    const args = { order_id: 'ORD-7002', reason: 'chipped' };
    const [fromModern, fromLegacy] = await Promise.all([
      call(modern, 'refund_order', args),
      call(legacy, 'refund_order', args),
    ]);
    expect(fromModern.structuredContent).toEqual({
      order_id: 'ORD-7002',
      refunded_cents: 1800,
      restocked: true,
      reason: 'chipped',
    });
    expect(fromLegacy.structuredContent).toEqual(fromModern.structuredContent);
    expect(logs.legacy).toEqual(logs.modern);
    expect(logs.modern).toEqual([
      'ORD-7002 has several items (enamel-mug, canvas-tote, sticker-pack). Refund the whole order, or one SKU?',
      'The refund includes physical items (enamel-mug). Return them to stock?',
    ]);
    expect(legacy.counters.questions).toEqual(modern.counters.questions);
    expect(modern.counters.legs['tools/call']).toBe(3);
    expect(legacy.counters.pushes).toBe(2);
  });

  it('[K2] with questions of every kind: same results, same questions in the same order, on both eras at once', async () => {
    const { server } = countedServer();
    const order: Record<'modern' | 'legacy', string[]> = { modern: [], legacy: [] };
    const connectEra = (era: 'modern' | 'legacy') =>
      connect(server, {
        era,
        elicit: (params) => {
          order[era].push(`elicit:${params.message}`);
          return { action: 'accept', content: { pick: 'Di' } };
        },
        sample: (params) => {
          order[era].push(`sample:${JSON.stringify(params.messages)}`);
          return sampled('irises');
        },
        roots: () => {
          order[era].push('roots');
          return { roots: [] };
        },
      });
    const [modern, legacy] = await Promise.all([connectEra('modern'), connectEra('legacy')]);
    const [a, b] = await Promise.all([call(modern, 'survey', { id: 'k' }), call(legacy, 'survey', { id: 'k' })]);
    expect(textOf(a)).toBe('K | Di | irises | ');
    expect(textOf(b)).toBe(textOf(a));
    expect(order.legacy).toEqual(order.modern);
    expect(legacy.counters.questions).toEqual(modern.counters.questions);
    // Independent questions first (the name and the roots), then the poem that needs the name.
    expect(order.modern.map((entry) => entry.split(':')[0])).toEqual(['elicit', 'roots', 'sample']);
  });
});

describe('legacy without a back-channel (legacy only: modern calls need no back-channel)', () => {
  it("[K3] the SDK's stateless legacy leg (no initialize, no session) fails a question with a clear top-level error, not a hang", async () => {
    const { server, runs } = countedServer();
    const handler = createMcpHandler(server.createServer);
    onCleanup(() => handler.close());
    const request = new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'survey', arguments: { id: 'z' } },
      }),
    });
    const reply = await withDeadline(readJsonRpc(await handler.fetch(request)), 20_000);
    expect(reply).toMatchObject({ id: 1, error: { code: -32603 } });
    expect(JSON.stringify(reply)).toMatch(
      /Resolver 'name' needs to ask the client.*no channel for server-to-client requests/,
    );
    expect(reply).not.toHaveProperty('result');
    expect(runs.body).toBe(0);
  });

  it('[K3] on the same stateless leg, a call whose resolvers ask nothing still completes', async () => {
    const value = resolver({ name: 'value', args: { n: z.number() } }, ({ n }) => n + 1);
    const server = newServer().tool(
      'plain',
      { input: { n: z.number() }, resolve: { value } },
      ({ value: v }) => `${v}`,
    );
    const handler = createMcpHandler(server.createServer);
    onCleanup(() => handler.close());
    const request = new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'plain', arguments: { n: 1 } },
      }),
    });
    const reply = await withDeadline(readJsonRpc(await handler.fetch(request)), 20_000);
    expect(reply).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: '2' }] } });
  });
});

describe('legacy per-question timeout (legacy only: a modern question holds no server-side wait)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('[K4] a configured timeout fails a question the human never answers, with an error result', async () => {
    const { server, runs } = countedServer({ legacyQuestionTimeoutMs: 150 });
    const connection = await connect(server, {
      era: 'legacy',
      elicit: () => new Promise<ElicitResult>(() => {}),
      sample: () => sampled('never'),
      roots: () => ({ roots: [] }),
    });
    // The client waits far longer than the server's question timeout: the server must give up first.
    const result = await connection.client.callTool({ name: 'survey', arguments: { id: 't' } }, { timeout: 10_000 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/timed out|timeout/i);
    expect(runs.body).toBe(0);
  });

  it('[K4] the timeout is configurable upwards: a slow human within it is fine', async () => {
    const { server } = countedServer({ legacyQuestionTimeoutMs: 5_000 });
    const connection = await connect(server, {
      era: 'legacy',
      elicit: async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { action: 'accept', content: { pick: 'Slow' } };
      },
      sample: () => sampled('moss'),
      roots: () => ({ roots: [] }),
    });
    expect(textOf(await call(connection, 'survey', { id: 's' }))).toBe('S | Slow | moss | ');
  });

  it('[K4] the default is generous: a human answering after several minutes still completes the call', async () => {
    const { server } = countedServer();
    let release: (answer: ElicitResult) => void = () => {};
    let askedNow: () => void = () => {};
    const askedSignal = new Promise<void>((resolve) => (askedNow = resolve));
    const connection = await connect(server, {
      era: 'legacy',
      elicit: () => {
        askedNow();
        return new Promise<ElicitResult>((resolve) => (release = resolve));
      },
      sample: () => sampled('fern'),
      roots: () => ({ roots: [] }),
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pending = connection.client.callTool({ name: 'survey', arguments: { id: 'g' } }, { timeout: 3_600_000 });
    await askedSignal;
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    release({ action: 'accept', content: { pick: 'Late' } });
    const result = await pending;
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe('G | Late | fern | ');
  });

  it('[K4] a call the client cancels (its own request timeout, say) withdraws the open question and asks nothing more', async () => {
    const { server, runs } = countedServer();
    const later: string[] = [];
    const connection = await connect(server, {
      era: 'legacy',
      elicit: () => ({ action: 'accept', content: { pick: 'unused' } }),
      sample: () => {
        later.push('sampling/createMessage');
        return sampled('never');
      },
      roots: () => {
        later.push('roots/list');
        return { roots: [] };
      },
    });
    const cancelCall = new AbortController();
    let withdrawn: () => void = () => {};
    const questionWithdrawn = new Promise<void>((resolve) => (withdrawn = resolve));
    // The person is still looking at the form when the client gives up on the call; they answer anyway.
    connection.client.setRequestHandler('elicitation/create', async (_request, ctx) => {
      ctx.mcpReq.signal.addEventListener('abort', () => withdrawn(), { once: true });
      cancelCall.abort(new Error('the client gave up on the call'));
      await questionWithdrawn;
      return { action: 'accept', content: { pick: 'Late' } };
    });
    const pending = connection.client.callTool(
      { name: 'survey', arguments: { id: 'c' } },
      { signal: cancelCall.signal },
    );
    await expect(pending).rejects.toThrow('the client gave up on the call');
    await withDeadline(questionWithdrawn, 20_000);
    // One more round trip on the same connection: anything the cancelled call still sent has arrived by now.
    await connection.client.listTools();
    expect(later).toEqual([]);
    expect(runs.body).toBe(0);
  });

  it('[K4] a timeout that is not a positive number is refused at construction', () => {
    for (const legacyQuestionTimeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new McpResolveServer(INFO, { legacyQuestionTimeoutMs })).toThrow(McpResolveError);
    }
  });
});

/** Reads the one JSON-RPC message of a response, whether sent as JSON or as a one-event SSE stream. */
async function readJsonRpc(response: Response): Promise<Record<string, unknown>> {
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const stream = new SseReader(response);
    try {
      return await stream.next(5_000);
    } finally {
      await stream.cancel();
    }
  }
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return expect.fail(`not a JSON-RPC message: ${JSON.stringify(body)}`);
  return { ...body };
}

/** Fails instead of hanging when `promise` takes longer than `ms`. */
async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms (a hang)`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
