/**
 * Writing the hosting's reply (a `JsonReply` or a Web `Response`) to a `node:http` response. Unlike
 * the SDK's Node adapter, which copies a `Response`'s headers into a plain object and so keeps only
 * the last of several `Set-Cookie` headers, every `Set-Cookie` is written (`Headers.getSetCookie()`);
 * and the signal of a client that leaves before its reply is written.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

import type { Reply } from '../hosting/exchange.js';
import { JsonReply } from '../hosting/exchange.js';

/** `headers` as Node writes them: one value per name, `Set-Cookie` as the array of all its values. */
export function nodeHeaders(headers: Headers): OutgoingHttpHeaders {
  const written: OutgoingHttpHeaders = {};
  for (const [name, value] of headers) if (name !== 'set-cookie') written[name] = value;
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) written['set-cookie'] = cookies;
  return written;
}

/**
 * Writes `reply` to `res`: a JSON reply in one piece, anything else streamed with backpressure (an
 * event stream's headers flushed at once) until it ends or `left` aborts (the client went away).
 */
export async function writeReply(res: ServerResponse, reply: Reply, left: AbortSignal): Promise<void> {
  if (reply instanceof JsonReply) {
    // A declared length, not chunked framing: one buffer the client reads without decoding chunks.
    res.setHeader('Content-Length', Buffer.byteLength(reply.body));
    res.writeHead(reply.status, reply.headers);
    return void res.end(reply.body);
  }
  const response = reply;
  res.writeHead(response.status, nodeHeaders(response.headers));
  if (response.body === null) return void res.end();
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('application/json')) return void res.end(Buffer.from(await response.arrayBuffer()));
  if (type.startsWith('text/event-stream')) res.flushHeaders();
  let onLeft!: () => void;
  const gone = new Promise<void>((resolve) => (onLeft = resolve));
  left.addEventListener('abort', onLeft, { once: true });
  try {
    for await (const chunk of response.body) {
      if (left.aborted) break;
      if (!res.write(chunk)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), gone]);
    }
  } catch {
    // The stream ended with an error or the client left: end the reply either way.
  } finally {
    // `left` outlives the reply (a Request that follows it keeps it until that Request is finalized):
    // a listener left on it would keep this response reachable as long.
    left.removeEventListener('abort', onLeft);
  }
  res.end();
}

/** A signal that aborts when the client leaves (its socket closes) before `res` has finished. */
export function clientLeaving(res: ServerResponse): AbortSignal {
  const left = new AbortController();
  let finished = false;
  res.once('finish', () => (finished = true));
  res.on('close', () => finished || left.abort());
  return left.signal;
}
