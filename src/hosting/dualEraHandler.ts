/**
 * One web-standard `fetch` handler serving both protocol eras on one URL path: modern
 * (2026-07-28) traffic goes to the SDK's per-request handler, legacy (2025-11-25) traffic to a
 * sessionful leg that can push requests to the client mid-call.
 */

import type { McpHandlerRequestOptions, ServerNotifier } from '@modelcontextprotocol/server';
import { isJsonContentType, isLegacyRequest } from '@modelcontextprotocol/server';

import { createOAuthGate } from '../auth/resourceServer.js';
import type { HttpRoute } from '../channels/channel.js';
import { clientOfRequest, countedClient, createClientAddressing } from './clientAddressing.js';
import type { HostedPost, Reply } from './exchange.js';
import { handedRequest, pathOf, readJsonBody, toResponse, withHeader } from './exchange.js';
import { isNestedBatch, normalizeInbound } from './inbound.js';
import { jsonRpcErrorResponse } from './jsonRpcError.js';
import type { LegacySessionLeg } from './legacy/leg/legacySessionLeg.js';
import { createModernLeg } from './modern/modernLeg.js';
import { createLegacySessionLeg } from './legacy/leg/legacySessionLeg.js';
import type { DualEraHttpOptions, ResolvedDualEraHttpOptions } from './options.js';
import { browserGuard, createRebindingGuard } from './rebindingGuard.js';
import { legacyLegOptions, reporter, resolveDualEraHttpOptions } from './resolveDualEraHttpOptions.js';
import type { HostedServer, ServerSource } from './source.js';
import { hostedServer } from './source.js';
import { isModernRevision } from '../protocol.js';

const NESTED_BATCH = 'a JSON-RPC batch entry must be a message object, not an array';

/** Per-request options of {@link DualEraHandler.fetch}: the SDK's, plus the client's remote address. */
export interface DualEraRequestOptions extends McpHandlerRequestOptions {
  /**
   * The client's remote address (`serveHttp` sets it from the socket): anonymous legacy sessions
   * count against it for `maxLegacySessionsPerClient`. The `clientAddress` option, when set, is
   * given it and wins.
   */
  readonly clientAddress?: string | undefined;
}

/**
 * The options of {@link HostedDualEraHandler.serve}: a Node host may hand over the client's leaving
 * apart from the `Request`, which then carries no signal of its own (building a `Request` that
 * follows a signal costs more than the rest of its construction). The modern lane watches
 * `clientLeft` itself; anything else gets a copy of the `Request` that follows it.
 */
export interface ServeOptions extends DualEraRequestOptions {
  /** Aborts when the client leaves; set only with a body-less `request` (its body parsed into `parsedBody`). */
  readonly clientLeft?: AbortSignal | undefined;
}

/** The handler returned by {@link createDualEraHandler}. */
export interface DualEraHandler {
  /** Serves one HTTP request of either era; `authInfo` is passed through to the factory and handlers. */
  fetch(request: Request, init?: DualEraRequestOptions): Promise<Response>;
  /** Closes every legacy session and in-flight modern exchange; later requests answer 503. */
  close(): Promise<void>;
  /**
   * Publishes list-changed and resource-updated notifications to clients of both eras: modern
   * `subscriptions/listen` streams and every live legacy session.
   */
  readonly notify: ServerNotifier;
}

/**
 * Creates a `fetch` handler that serves a `McpResolveServer` (or an SDK server factory) to modern and
 * legacy clients on one path, behind the Host/Origin DNS-rebinding guard (loopback names by default)
 * and a JSON Content-Type check. Web-standard only: runs on Workers, Deno, Bun and Node.
 */
export function createDualEraHandler(server: ServerSource, options?: DualEraHttpOptions): DualEraHandler {
  return hostDualEra(server, options, 'createDualEraHandler()').handler;
}

/** A dual-era handler as a host gets it: the handler, and the channel routes it serves beside the MCP path. */
export interface HostedDualEraHandler {
  readonly handler: DualEraHandler;
  /** The handler's `fetch`, answering a JSON reply as text (a Node host writes it as it is). */
  readonly serve: (request: Request, init?: ServeOptions) => Promise<Reply>;
  /** The routes of the server's channels (a host lets their requests past its own authentication). */
  readonly routes: readonly HttpRoute[];
}

/** {@link createDualEraHandler} for a host named `caller`: the one place a {@link ServerSource} is taken apart for HTTP. */
export function hostDualEra(
  server: ServerSource,
  options: DualEraHttpOptions | undefined,
  caller: string,
): HostedDualEraHandler {
  const hosted = hostedServer(server, caller);
  const resolved = resolveDualEraHttpOptions('createDualEraHandler()', options);
  const { path, allowedHosts, allowedOrigins, maxRequestBodyBytes, onerror } = resolved;
  const report = reporter(onerror);
  const sdkOptions = { legacy: 'reject', onerror: report, maxRequestBodySize: maxRequestBodyBytes } as const;
  const fleet = resolved.sessionFleet;
  // With legacy: 'reject' there is no session leg: 2025-era traffic reaches the strict modern handler, which refuses it.
  const legacy = resolved.legacy === 'sessions' ? legacyLegOf(hosted, resolved, report) : undefined;
  const modern = createModernLeg(hosted.factory, hosted.reuse, sdkOptions);
  const legacyClient = createClientAddressing(
    resolved.clientAddress,
    'createDualEraHandler()',
    options?.onerror === undefined ? undefined : report,
  );
  const guard = createRebindingGuard(allowedHosts, allowedOrigins, report);
  const oauth = resolved.oauth && createOAuthGate(`${caller} with oauth`, resolved.oauth, path, report);
  let closed = false;

  async function route(request: Request, init: ServeOptions): Promise<Reply> {
    if (closed) return jsonRpcErrorResponse(503, -32000, 'Service Unavailable: the server is shutting down');
    const route = hosted.httpRoutes.find((candidate) => candidate.owns(request));
    if (route !== undefined) return browserGuard(guard, request) ?? (await route.serve(request));
    const rejected = guard(request);
    if (rejected !== undefined) return rejected;
    if (pathOf(request.url) !== path) return oauth?.metadata(request) ?? jsonRpcErrorResponse(404, -32000, 'Not Found');
    const method = request.method.toUpperCase();
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      return jsonRpcErrorResponse(405, -32000, 'Method not allowed.', { Allow: 'GET, POST, DELETE' });
    }
    const authInfo = oauth === undefined ? init.authInfo : await oauth.authenticate(request);
    if (authInfo instanceof Response) return authInfo;
    if (method !== 'POST') {
      const forward = { ...(authInfo !== undefined && { authInfo }) };
      return (await isLegacyRequest(request))
        ? (legacy ?? modern).fetch(request, forward)
        : modern.fetch(request, forward);
    }
    if (!isJsonContentType(request.headers.get('content-type'))) {
      report(new Error('Unsupported Media Type: Content-Type must be application/json'));
      return jsonRpcErrorResponse(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    }
    let parsedBody = init.parsedBody;
    if (parsedBody === undefined) {
      const read = await readJsonBody(request, maxRequestBodyBytes);
      if (!read.ok) return read.response;
      parsedBody = read.body;
    }
    if (isNestedBatch(parsedBody)) {
      report(new Error(`Rejected request: ${NESTED_BATCH}`));
      return jsonRpcErrorResponse(400, -32600, `Invalid Request: ${NESTED_BATCH}`);
    }
    parsedBody = normalizeInbound(parsedBody);
    const toLegacy =
      legacy !== undefined &&
      !claimsModern(request, parsedBody) &&
      (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: maxRequestBodyBytes }));
    // Whom an anonymous request counts against: its channels' bounds (pages a client), a question's attempts.
    const anonymous = authInfo === undefined;
    // Decided once: the legacy leg's (with its proxy warning), else only when the routes need it.
    const client = toLegacy
      ? legacyClient(request, init.clientAddress)
      : anonymous
        ? clientOfRequest(resolved.clientAddress, request, init.clientAddress)
        : undefined;
    const counted = anonymous ? countedClient(client) : undefined;
    const post: HostedPost = { request, parsedBody, authInfo, clientLeft: init.clientLeft, client: counted };
    if (!toLegacy || legacy === undefined) return modern.post(post);
    const legacyInit = { ...(authInfo !== undefined && { authInfo }), parsedBody, ...client };
    return legacy.fetch(handedRequest(post, true), legacyInit);
  }

  async function serve(request: Request, init: ServeOptions = {}): Promise<Reply> {
    let reply: Reply;
    try {
      reply = await route(request, init);
    } catch (error) {
      report(error);
      reply = jsonRpcErrorResponse(500, -32603, 'Internal server error');
    }
    return fleet === undefined ? reply : withHeader(reply, INSTANCE_HEADER, fleet.instanceId);
  }

  const handler: DualEraHandler = {
    fetch: async (request, init) => toResponse(await serve(request, init)),
    async close() {
      closed = true;
      await Promise.all([legacy?.close(), modern.close()]);
    },
    notify: bothEras(modern.notify, legacy?.notify),
  };
  return { handler, serve, routes: hosted.httpRoutes };
}

/** The sessionful legacy leg of `hosted`, with the resolved session limits and fleet. */
function legacyLegOf(
  hosted: HostedServer,
  resolved: ResolvedDualEraHttpOptions,
  report: (error: unknown) => void,
): LegacySessionLeg {
  return createLegacySessionLeg(hosted.factory, {
    ...legacyLegOptions(resolved),
    onerror: report,
    onSessions: (delta) => hosted.telemetry?.legacySessions?.(delta),
  });
}

/** One notifier for the clients of both eras: the modern handler's, then the legacy leg's (when there is one). */
function bothEras(modern: ServerNotifier, legacy: ServerNotifier | undefined): ServerNotifier {
  return {
    toolsChanged: () => (modern.toolsChanged(), legacy?.toolsChanged()),
    promptsChanged: () => (modern.promptsChanged(), legacy?.promptsChanged()),
    resourcesChanged: () => (modern.resourcesChanged(), legacy?.resourcesChanged()),
    resourceUpdated: (uri) => (modern.resourceUpdated(uri), legacy?.resourceUpdated(uri)),
  };
}

/**
 * Whether a parsed POST is modern traffic without classifying it: its `MCP-Protocol-Version`
 * header names a modern revision and its body is one request or notification (not a response, not
 * a batch). The SDK's classification of such a body is "modern" or a rejection the modern handler
 * gives the same way, never "legacy"; the modern handler classifies every request itself, so
 * asking `isLegacyRequest` first would validate the body twice (6% of a request's CPU in `npm run profile`).
 */
function claimsModern(request: Request, body: unknown): boolean {
  if (!isModernRevision(request.headers.get('mcp-protocol-version') ?? undefined)) return false;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  return 'method' in body && typeof body.method === 'string' && !('result' in body) && !('error' in body);
}

/** The response header naming the fleet instance that served a request. */
export const INSTANCE_HEADER = 'Mcp-Resolve-Instance';
