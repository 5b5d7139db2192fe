/**
 * A JSON POST to the MCP endpoint served on `node:http` without the SDK Node adapter's Web round
 * trip: the body is read here (bounded, as the adapter bounds it) and parsed once, the handler gets
 * a `Request` without a body plus the parsed value (`parsedBody`), and a JSON reply is written as one
 * buffer. The adapter builds a `Request` with the body as a stream, the hosting reads that stream
 * again, and every reply is pumped chunk by chunk from a `Response` stream. Anything else (another
 * path or method, a body that is not JSON, an event-stream reply) takes the same answers as before:
 * a body that does not parse is handed on as text, so the hosting answers it as it always has.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { DEFAULT_MAX_REQUEST_BODY_SIZE, isJsonContentType } from '@modelcontextprotocol/server';

import type { ServeOptions } from '../hosting/dualEraHandler.js';
import { jsonRpcErrorResponse } from '../hosting/jsonRpcError.js';
import type { Reply } from '../hosting/exchange.js';
import { clientLeaving, writeReply } from './writeReply.js';

/** What {@link serveJsonExchange} calls: the hosting's `serve`. */
export type ExchangeHandler = (request: Request, init: ServeOptions) => Promise<Reply>;

/** How `serveHttp` serves an exchange it reads itself: the body bound, the client's address, where failures go. */
export interface ExchangeOptions {
  readonly maxBytes?: number | undefined;
  readonly clientAddress?: string | undefined;
  readonly onerror: (error: Error) => void;
}

/** Whether `req` is a request {@link serveJsonExchange} serves: a JSON POST to `path`. */
export function isJsonExchange(req: IncomingMessage, path: string): boolean {
  if (req.method !== 'POST' || !isJsonContentType(req.headers['content-type'] ?? null)) return false;
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  return (query === -1 ? url : url.slice(0, query)) === path;
}

/** The body as text, or `undefined` past `maxBytes` (the declared length or the bytes that came). */
export function readText(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  if (Number(req.headers['content-length']) > maxBytes) return Promise.resolve(undefined);
  // Stream events rather than an async iterator: one promise per body, not one per chunk.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const settle = (text: string | undefined): void => {
      req.off('data', data).off('end', end).off('error', reject).off('close', left);
      resolve(text);
    };
    const data = (chunk: Buffer): void => {
      received += chunk.byteLength;
      if (received <= maxBytes) return void chunks.push(chunk);
      settle(undefined);
      req.resume();
    };
    const end = (): void =>
      settle(
        chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks, received).toString('utf8'),
      );
    const left = (): void => reject(new Error('The client closed the connection before its request body arrived.'));
    req.on('data', data).once('end', end).once('error', reject).once('close', left);
  });
}

/** The request's headers as a Web `Headers` (pseudo-headers left out, repeated ones appended). */
export function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

/** Answers the SDK adapter's 413 for a body over `maxBytes`, word for word. */
export function tooLarge(res: ServerResponse, maxBytes: number): void {
  const message = `Payload Too Large: Request body must not exceed ${maxBytes} bytes`;
  res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Serves one JSON POST (see {@link isJsonExchange}) through `handle`, with `clientAddress` in the
 * request options. A body over `maxBytes` gets the SDK adapter's 413; a request that cannot be
 * built or a handler that throws, reported to `onerror`, the adapter's 500.
 */
export async function serveJsonExchange(
  req: IncomingMessage,
  res: ServerResponse,
  handle: ExchangeHandler,
  options: ExchangeOptions,
): Promise<void> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const left = clientLeaving(res);
  const text = await readText(req, maxBytes);
  if (text === undefined) return tooLarge(res, maxBytes);
  let parsedBody: unknown;
  let body: string | undefined;
  try {
    parsedBody = JSON.parse(text) as unknown;
  } catch {
    body = text;
  }
  let reply: Reply;
  try {
    const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
    // A parsed request gets a Request without the leaving signal, handed over apart (see ServeOptions).
    const apart = parsedBody !== undefined;
    const request = new Request(url, {
      method: 'POST',
      headers: webHeaders(req),
      ...(!apart && { signal: left }),
      ...(body !== undefined && { body }),
    });
    const init: ServeOptions = {
      ...(parsedBody !== undefined && { parsedBody }),
      ...(apart && { clientLeft: left }),
      ...(options.clientAddress !== undefined && { clientAddress: options.clientAddress }),
    };
    reply = await handle(request, init);
  } catch (error) {
    // What the SDK adapter answers when it cannot build the request (a Host no URL can carry).
    options.onerror(error instanceof Error ? error : new Error(String(error)));
    reply = jsonRpcErrorResponse(500, -32603, 'Internal server error');
  }
  await writeReply(res, reply, left);
}
