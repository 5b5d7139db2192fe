/**
 * A request for one of the server's channel routes (an answer page a person's browser opens) served
 * on `node:http` without the SDK's Node adapter, whose response writer keeps only the last of several
 * `Set-Cookie` headers: the request is built as the adapter builds it (the body read as text up to the
 * same limit, with its 413 past it), goes to the same handler (so the hosting's Host and Origin guard
 * still stands before the route), and its reply is written by {@link writeReply}, every cookie kept.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';

import type { HttpRoute } from '../channels/channel.js';
import { jsonRpcErrorResponse } from '../hosting/jsonRpcError.js';
import type { Reply } from '../hosting/exchange.js';
import type { ExchangeHandler, ExchangeOptions } from './jsonExchange.js';
import { readText, tooLarge, webHeaders } from './jsonExchange.js';
import { clientLeaving, writeReply } from './writeReply.js';

/**
 * The request `req` as a route sees it, headers only, when one of `routes` owns it; `undefined`
 * when none does or no `Request` can be built from it (the adapter answers those as before).
 */
export function routedRequest(req: IncomingMessage, routes: readonly HttpRoute[]): Request | undefined {
  if (routes.length === 0) return undefined;
  let probe: Request;
  try {
    probe = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers: webHeaders(req),
    });
  } catch {
    return undefined;
  }
  return routes.some((route) => route.owns(probe)) ? probe : undefined;
}

/**
 * Serves `req`, which a route owns (`probe`, from {@link routedRequest}), through `handle` with
 * `clientAddress` in the request options. A body over `maxBytes` gets the SDK adapter's 413; a
 * handler that throws, reported to `onerror`, the adapter's 500.
 */
export async function serveRouteExchange(
  req: IncomingMessage,
  res: ServerResponse,
  probe: Request,
  handle: ExchangeHandler,
  options: ExchangeOptions,
): Promise<void> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const left = clientLeaving(res);
  let body: string | undefined;
  if (probe.method !== 'GET' && probe.method !== 'HEAD') {
    const text = await readText(req, maxBytes);
    if (text === undefined) return tooLarge(res, maxBytes);
    if (text.length > 0) body = text;
  }
  let reply: Reply;
  try {
    const request = new Request(probe.url, {
      method: probe.method,
      headers: probe.headers,
      signal: left,
      ...(body !== undefined && { body }),
    });
    reply = await handle(request, {
      ...(options.clientAddress !== undefined && { clientAddress: options.clientAddress }),
    });
  } catch (error) {
    options.onerror(error instanceof Error ? error : new Error(String(error)));
    reply = jsonRpcErrorResponse(500, -32603, 'Internal server error');
  }
  await writeReply(res, reply, left);
}
