/**
 * A legacy call whose response stream is lost with its instance ends at once for the official
 * client: the stream opens with an event id naming the instance and the requests, the client
 * resumes it on another instance (GET with Last-Event-ID), and that instance answers each request
 * with an error saying what happened. Two handlers share the in-memory hub; a "balancer" sends
 * everything to the first until it stops, then to the second.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { createMemorySessionHub } from '../../../src/contracts/index.js';
import type { DualEraHandler } from '../../../src/hosting/index.js';
import { createDualEraHandler } from '../../../src/hosting/index.js';
import {
  STREAM_LOST,
  STREAM_RETRY_MS,
  answerResumedStream,
  resumableStream,
  resumedStream,
} from '../../../src/hosting/legacy/streamResumption.js';
import { connectHttp } from '../../../src/testing/index.js';
import { askNameServer } from '../../testing/fixtures/askNameServer.js';

const URL_ = new URL('http://localhost/mcp');
const handlers: DualEraHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

const CALL = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'greet', arguments: {} } };
const SESSION = { sessionId: 'session-1', streamKey: 'ab'.repeat(32) };
const eventStream = (text: string): Response =>
  new Response(text, { headers: { 'Content-Type': 'text/event-stream' } });

describe('a resumable response stream', () => {
  it('opens with an event id naming the instance and the requests, and a retry, before the stream itself', async () => {
    const primed = resumableStream(
      eventStream('event: message\ndata: {}\n\n'),
      'desk-1',
      SESSION,
      [CALL],
      '2025-11-25',
    );
    const text = await primed.text();
    const id = /^id: (.+)\n/.exec(text)?.[1];
    expect(text).toBe(`id: ${id}\nretry: ${STREAM_RETRY_MS}\ndata: \n\nevent: message\ndata: {}\n\n`);
    expect(resumedStream(id ?? null, SESSION)).toEqual({ instance: 'desk-1', requests: [7] });
  });

  it('is resumed only on its own session, with its event id as it was signed', async () => {
    const text = await resumableStream(eventStream(''), 'desk-1', SESSION, [CALL], '2025-11-25').text();
    const id = /^id: (.+)\n/.exec(text)?.[1] ?? '';
    expect(resumedStream(id, { ...SESSION, sessionId: 'session-2' })).toBeUndefined();
    expect(resumedStream(id, { ...SESSION, streamKey: 'cd'.repeat(32) })).toBeUndefined();
    expect(resumedStream(id, { ...SESSION, streamKey: undefined })).toBeUndefined();
    const altered = id.replace('desk-1', 'desk-2');
    expect(altered).not.toBe(id);
    expect(resumedStream(altered, SESSION)).toBeUndefined();
    expect(resumedStream(id.slice(0, id.lastIndexOf(':')), SESSION)).toBeUndefined();
  });

  it('opens with no event id on a session without a stream key', () => {
    const stream = eventStream('');
    expect(resumableStream(stream, 'desk-1', { ...SESSION, streamKey: undefined }, [CALL], '2025-11-25')).toBe(stream);
  });

  it('keeps instance ids with colons and string request ids', () => {
    const primed = resumableStream(eventStream(''), 'eu:desk:1', SESSION, [{ ...CALL, id: 'a:b' }], '2025-11-25');
    return primed.text().then((text) => {
      const id = /^id: (.+)\n/.exec(text)?.[1] ?? null;
      expect(resumedStream(id, SESSION)).toEqual({ instance: 'eu:desk:1', requests: ['a:b'] });
    });
  });

  it('leaves a JSON response, a body without requests and a client before 2025-11-25 as they are', () => {
    const json = Response.json({});
    expect(resumableStream(json, 'desk-1', SESSION, CALL, '2025-11-25')).toBe(json);
    const notification = eventStream('');
    const note = { jsonrpc: '2.0', method: 'x' };
    expect(resumableStream(notification, 'desk-1', SESSION, note, '2025-11-25')).toBe(notification);
    const older = eventStream('');
    expect(resumableStream(older, 'desk-1', SESSION, CALL, '2025-06-18')).toBe(older);
    expect(resumableStream(older, 'desk-1', SESSION, CALL, null)).toBe(older);
  });

  it.each([
    ['no header', null],
    ['an id of another kind', 'mcpr:desk-1:3'],
    ['no request ids', 'mcpr-stream:desk-1:%5B%5D'],
    ['ids that are not JSON', 'mcpr-stream:desk-1:%5B7'],
    ['an id of the wrong type', 'mcpr-stream:desk-1:%5B%7B%7D%5D'],
    ['a malformed escape', 'mcpr-stream:desk%E0-1:%5B7%5D'],
  ])('names no stream of ours for %s', (_what, header) => {
    expect(resumedStream(header, SESSION)).toBeUndefined();
  });
});

describe('a resumed stream is answered with an error per request', () => {
  const read = async (response: Response) =>
    (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { id: unknown; error: { message: string; data: unknown } });

  it('saying the instance stopped when it no longer listens to the fleet', async () => {
    const hub = createMemorySessionHub();
    const [answer] = await read(await answerResumedStream(hub.member('b'), { instance: 'a', requests: [7] }, () => {}));
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32603,
        message:
          'Instance a, which was serving this request, stopped before answering it. Send the request again: another instance will serve it.',
        data: { reason: STREAM_LOST, instance: 'a' },
      },
    });
  });

  it('saying only the stream was lost when the instance still listens', async () => {
    const hub = createMemorySessionHub();
    const stop = await hub.member('a').subscribe(() => {});
    const answers = await read(
      await answerResumedStream(hub.member('b'), { instance: 'a', requests: [7, 'x'] }, () => {}),
    );
    expect(answers.map((answer) => answer.id)).toEqual([7, 'x']);
    expect(answers[0]?.error.message).toBe(
      'The response stream of this request was lost before its response (instance a served it). This server keeps no copy of it: send the request again.',
    );
    await stop();
  });

  it('saying only the masked text with a ref when the fleet cannot tell; the cause goes to the error sink', async () => {
    const member = createMemorySessionHub().member('b');
    const failing = { ...member, listening: () => Promise.reject(new Error('The client is offline')) };
    const reported: Error[] = [];
    const [answer] = await read(
      await answerResumedStream(failing, { instance: 'a', requests: [7] }, (error) => reported.push(error as Error)),
    );
    const ref = /^Internal error \(ref ([0-9a-f]{12})\): the server could not complete this request\./.exec(
      answer?.error.message ?? '',
    )?.[1];
    expect(ref).toBeDefined();
    expect(JSON.stringify(answer)).not.toContain('offline');
    expect(reported.map((error) => error.message)).toEqual([
      `The legacy session backend failed to check the instance of a resumed stream: The client is offline [ref ${ref}]`,
    ]);
  });
});

describe('the official client, its call on an instance that stops mid-push', () => {
  it.each([
    ['cut (connection reset)', 'error'],
    ['ended cleanly by a proxy', 'close'],
  ] as const)('ends the call with the error when the stream is %s', async (_what, how) => {
    const hub = createMemorySessionHub();
    // Instance a's subscription, stopped when it "dies" (a killed process leaves the bus at once).
    let leave: (() => Promise<void>) | undefined;
    const member = hub.member('a');
    const fleetA = {
      ...member,
      subscribe: async (...args: Parameters<typeof member.subscribe>) => (leave = await member.subscribe(...args)),
    };
    const a = createDualEraHandler(askNameServer, { sessionFleet: fleetA });
    const b = createDualEraHandler(askNameServer, { sessionFleet: hub.member('b') });
    handlers.push(a, b);
    let target = a;
    let cut: (() => void) | undefined;
    const balancer = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      const headers = new Headers(request.headers);
      headers.set('host', 'localhost');
      const response = await target.fetch(new Request(request, { headers }));
      if (target !== a || request.method !== 'POST' || response.body === null) return response;
      // The proxy's copy of the stream, which the test cuts as an instance that dies would.
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          cut = () => {
            if (how === 'error') controller.error(new TypeError('terminated'));
            else controller.close();
            void reader.cancel();
          };
        },
        async pull(controller) {
          const chunk = await reader.read().catch(() => undefined);
          if (chunk === undefined || chunk.done) controller.close();
          else controller.enqueue(chunk.value);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const connection = await connectHttp(URL_, {
      era: 'legacy',
      elicit: async () => {
        // The instance serving the call dies while its push waits: it leaves the fleet, its stream is cut.
        if (target === a) {
          await leave?.();
          cut?.();
          target = b;
        }
        return { action: 'accept', content: { name: 'Ada' } };
      },
      transportOptions: { fetch: balancer },
    });
    connection.client.onerror = () => {};
    const call = connection.client.callTool({ name: 'greet', arguments: {} }, { timeout: 60_000 });
    await expect(call).rejects.toThrow(
      'Instance a, which was serving this request, stopped before answering it. Send the request again: another instance will serve it.',
    );
    // The session lives on: the next call is served by the other instance.
    const result = await connection.client.callTool({ name: 'greet', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada (legacy)' }]);
    await connection.close();
  });
});
