/**
 * `writeReply` over a real `node:http` server: a streamed reply reaches the client whole, and once
 * it is written nothing of it hangs on the leaving signal (a Request that follows that signal keeps
 * it until the Request is finalized, so a listener left on it would keep the response reachable).
 */
import { getEventListeners } from 'node:events';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { clientLeaving, writeReply } from '../../src/node/writeReply.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Serves one streamed reply of `chunks`; the leaving signal and its abort listeners once written. */
async function serveStream(chunks: readonly string[]): Promise<{ body: string; listeners: number; aborted: boolean }> {
  let written!: Promise<{ listeners: number; aborted: boolean }>;
  server = createServer((_req, res) => {
    const left = clientLeaving(res);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const reply = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    written = writeReply(res, reply, left).then(() => ({
      listeners: getEventListeners(left, 'abort').length,
      aborted: left.aborted,
    }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/`);
  const body = await response.text();
  return { body, ...(await written) };
}

describe('writeReply', () => {
  it('streams a reply whole and leaves no listener on the leaving signal', async () => {
    const served = await serveStream(['data: one\n\n', 'data: two\n\n', 'data: three\n\n']);
    expect(served.body).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    expect(served.aborted).toBe(false);
    expect(served.listeners).toBe(0);
  });
});
