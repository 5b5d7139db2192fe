/**
 * Serving both protocol eras over HTTP from a `node:http` server, through the SDK's Node adapter.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { AuthInfo, McpHandlerRequestOptions, ServerNotifier } from '@modelcontextprotocol/server';
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import type { NodeServerResponseLike } from '@modelcontextprotocol/node';
import { toNodeHandler } from '@modelcontextprotocol/node';

import { loadJose } from '../auth/jwtAccessToken.js';
import type { HttpRoute } from '../channels/channel.js';
import type { DualEraHandler, ServeOptions } from '../hosting/dualEraHandler.js';
import { hostDualEra } from '../hosting/dualEraHandler.js';
import type { DualEraHttpOptions } from '../hosting/options.js';
import type { Reply } from '../hosting/exchange.js';
import { toResponse } from '../hosting/exchange.js';
import { invalidOption } from '../optionChecks.js';
import type { ServerSource } from '../hosting/source.js';
import { isJsonExchange, serveJsonExchange } from './jsonExchange.js';
import { routedRequest, serveRouteExchange } from './routeExchange.js';
import { resolveServerTimeouts } from './serverTimeouts.js';
import { unreadableRequest } from './unreadableRequest.js';

/** Options of `serveHttp`. */
export interface ServeHttpOptions extends DualEraHttpOptions {
  /** TCP port; `0` picks a free one. @default 0 */
  port?: number;
  /** Interface to bind; a non-loopback address is added to the default `allowedHosts`. @default '127.0.0.1' */
  host?: string;
  /**
   * Decides who is calling before MCP sees the request: resolve to the caller's `AuthInfo` (handlers
   * read it as `ctx.http.authInfo`, and every sealed `requestState` is bound to its principal, so one
   * caller's state is refused for another), or to a `Response` (401, 403) to answer instead. The
   * SDK's `requireBearerAuth({ verifier })` from `@modelcontextprotocol/server` has this shape.
   * It guards MCP requests only: requests for the server's own pages (the `answerPage` server option)
   * never reach it, since a person's browser holds no bearer token; pages sign their user in with
   * `answerPage.signIn` or check them with `answerPage.browserUser`. For a JSON POST to the endpoint the `Request` carries the headers only
   * (the hosting reads the body once, itself): decide from the headers. For OAuth access tokens
   * use the `oauth` option instead (it serves the metadata clients discover too); not both.
   * @default undefined — requests carry no `AuthInfo`
   */
  authenticate?: (request: Request) => AuthInfo | Response | Promise<AuthInfo | Response>;
  /** Milliseconds a client has to send a request's headers; then its socket is closed (Node's `headersTimeout`). @default 10_000 */
  headersTimeoutMs?: number;
  /**
   * Milliseconds a client has to send a whole request, body included; then it gets 408 and its
   * socket is closed (Node's `requestTimeout`). Responses, event streams included, are not limited.
   * @default 30_000
   */
  requestTimeoutMs?: number;
  /** Milliseconds an idle keep-alive connection stays open between requests (Node's `keepAliveTimeout`). @default 5_000 */
  keepAliveTimeoutMs?: number;
  /** Most connections open at once; further ones are closed as they arrive (Node's `maxConnections`). @default 1_024 */
  maxConnections?: number;
}

/** How often Node checks header and request deadlines at most (its own default is 30 s). */
const MAX_DEADLINE_CHECK_MS = 1_000;

/** A running HTTP server from `serveHttp`. */
export interface HttpServerHandle {
  /** The MCP endpoint, e.g. `http://127.0.0.1:53011/mcp`. */
  readonly url: URL;
  /** Closes every session and connection, then the listening socket. */
  close(): Promise<void>;
  /** Publishes list-changed and resource-updated notifications to clients of both eras. */
  readonly notify: ServerNotifier;
}

/**
 * Starts a `node:http` server answering both eras of `server` on one path, with the dual-era handler
 * (which serves the server's channel routes beside it): `serveHttp` once `@modelcontextprotocol/node` is loaded.
 */
export async function listenHttp(server: ServerSource, options: ServeHttpOptions = {}): Promise<HttpServerHandle> {
  if (options.oauth !== undefined && options.authenticate !== undefined) {
    throw invalidOption(
      'serveHttp()',
      'authenticate',
      'cannot be combined with oauth',
      'Pass one of them: oauth checks bearer tokens itself.',
    );
  }
  // A missing jose fails here, naming the install, rather than at the first request.
  if (options.oauth !== undefined) await loadJose('serveHttp() with oauth');
  const host = options.host ?? '127.0.0.1';
  const { port, headersTimeout, requestTimeout, keepAliveTimeout, maxConnections } = resolveServerTimeouts(options);
  const {
    port: _port,
    host: _host,
    authenticate,
    headersTimeoutMs: _headers,
    requestTimeoutMs: _request,
    keepAliveTimeoutMs: _keepAlive,
    maxConnections: _connections,
    ...handlerOptions
  } = options;
  const { handler, serve, routes } = hostDualEra(
    server,
    { ...handlerOptions, allowedHosts: options.allowedHosts ?? defaultAllowedHosts(host) },
    'serveHttp()',
  );
  const report = (error: Error): void => options.onerror?.(error);
  // The socket's address reaches the handler through the request options (see addressed()).
  const remoteAddress = new AsyncLocalStorage<string | undefined>();
  const entry = authenticating(serve, authenticate, routes);
  const path = options.path ?? '/mcp';
  // JSON POSTs to the endpoint skip the adapter's Web round trip (jsonExchange.ts), channel routes its
  // writer (routeExchange.ts); the rest go through it.
  const nodeHandler = toNodeHandler(addressed(entry, remoteAddress), {
    onerror: report,
    ...(options.maxRequestBodyBytes !== undefined && { maxRequestBodySize: options.maxRequestBodyBytes }),
  });
  const httpServer = createServer(
    {
      headersTimeout: headersTimeout,
      requestTimeout: requestTimeout,
      keepAliveTimeout: keepAliveTimeout,
      connectionsCheckingInterval: Math.min(MAX_DEADLINE_CHECK_MS, headersTimeout),
    },
    (req, res) => {
      const unreadable = unreadableRequest(req);
      if (unreadable !== undefined) {
        report(new Error(unreadable.report));
        res.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
        res.end(unreadable.body);
        return;
      }
      const clientAddress = req.socket.remoteAddress;
      const maxBytes = options.maxRequestBodyBytes;
      // Channel routes (answer pages) skip the adapter too: its writer keeps one Set-Cookie of several.
      const exchange = isJsonExchange(req, path);
      const routed = exchange ? undefined : routedRequest(req, routes);
      const served = exchange
        ? serveJsonExchange(req, res, entry, { maxBytes, clientAddress, onerror: report })
        : routed !== undefined
          ? serveRouteExchange(req, res, routed, entry, { maxBytes, clientAddress, onerror: report })
          : remoteAddress.run(clientAddress, () => nodeHandler(req, flushingEventStreams(res)));
      served.catch((error: unknown) => {
        report(error instanceof Error ? error : new Error(String(error)));
        res.destroy();
      });
    },
  );
  httpServer.maxConnections = maxConnections;
  try {
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(port, host, () => {
        httpServer.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await handler.close();
    throw error;
  }
  const address = httpServer.address() as AddressInfo;
  const url = new URL(`http://${urlHost(address.address)}:${address.port}${path}`);
  let closing: Promise<void> | undefined;
  return {
    url,
    notify: handler.notify,
    close() {
      closing ??= (async () => {
        await handler.close();
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        httpServer.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}

/** `serve` as the SDK's Node adapter takes it, with each request's socket address (from `remoteAddress`'s context) in its options. */
function addressed(serve: Serve, remoteAddress: AsyncLocalStorage<string | undefined>): Pick<DualEraHandler, 'fetch'> {
  return {
    async fetch(request: Request, init?: McpHandlerRequestOptions) {
      const clientAddress = remoteAddress.getStore();
      return toResponse(await serve(request, { ...init, ...(clientAddress !== undefined && { clientAddress }) }));
    },
  };
}

/** The hosting's answer to one request (see `HostedDualEraHandler.serve`). */
type Serve = (request: Request, init?: ServeOptions) => Promise<Reply>;

/**
 * The handler behind `authenticate`: a `Response` answers the request, an `AuthInfo` rides along
 * with it. Requests a channel's route owns (a person's browser, which holds no bearer token: the
 * route checks its own user) go to the handler without it.
 */
function authenticating(
  serve: Serve,
  authenticate: ServeHttpOptions['authenticate'],
  routes: readonly HttpRoute[],
): Serve {
  if (authenticate === undefined) return serve;
  return async (request, init) => {
    if (routes.some((route) => route.owns(request))) return serve(request, init);
    const outcome = await authenticate(request);
    return outcome instanceof Response ? outcome : serve(request, { ...init, authInfo: outcome });
  };
}

/**
 * Node sends response headers with the first body write, so an SSE stream would stay invisible to
 * the client until its first event (up to one keep-alive period for an idle GET stream): flush the
 * headers of event streams as soon as they are written.
 */
function flushingEventStreams(res: ServerResponse): NodeServerResponseLike {
  return {
    writeHead(status, headers) {
      res.writeHead(status, headers);
      const type = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
      if (type?.toLowerCase().startsWith('text/event-stream') === true) res.flushHeaders();
      return res;
    },
    write: (chunk) => res.write(chunk),
    end: (chunk) => res.end(chunk),
    on: (event, listener) => res.on(event, listener),
    get destroyed() {
      return res.destroyed;
    },
  };
}

/** Loopback names, plus the bound address itself when it is a specific non-loopback one. */
function defaultAllowedHosts(host: string): string[] {
  const loopback = localhostAllowedHostnames();
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === '0.0.0.0' || bare === '::') return loopback;
  const named = bare.includes(':') ? `[${bare}]` : bare;
  return loopback.includes(named) ? loopback : [...loopback, named];
}

/** The host part of the endpoint URL: unspecified addresses map to loopback, IPv6 gets brackets. */
function urlHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return address.includes(':') ? `[${address}]` : address;
}
