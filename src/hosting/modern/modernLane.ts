/**
 * The modern lane: modern (2026-07-28) requests served by one long-lived SDK server instance over
 * an {@link ExchangeMux}, instead of an instance and a transport per request. Built on the SDK's
 * public API: a `McpServer` connected to a transport, its `toolInputSchemaJson` and
 * `resolveScopeChallenge`, and the server's `onerror`.
 *
 * The lane takes only requests it can serve exactly as the SDK's hosting would (see
 * `laneRequest.ts`), and of those only ones whose tool declares no `x-mcp-header` parameters and
 * which no scope challenge stops; everything else, and every request the instance answers before a
 * handler runs, is left to the SDK's hosting (`serve` answers `undefined`). Only a server whose
 * instances may serve one request after another (`InstanceReuse`) gets a lane; the modern leg
 * replaces it when a registration changes what an instance is built from.
 */
import type { AuthInfo, JSONRPCRequest, McpServer } from '@modelcontextprotocol/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';

import type { Reply } from '../reply.js';
import { ExchangeMux } from './exchangeMux.js';
import { MODERN_REVISION } from '../../era.js';
import { laneRequest } from './laneRequest.js';

/** The header a tool's input schema declares a mirrored parameter with (SEP-2243); such calls take the SDK's path. */
const MIRRORED_PARAMETER = 'x-mcp-header';

/** See the module comment. */
export interface ModernLane {
  /**
   * Serves `body` (the request's parsed JSON), or answers `undefined` when the SDK's hosting must
   * answer it. The client leaving is `clientLeft`, else `request.signal`; a client that left gets
   * the SDK's 499 (nobody reads it).
   */
  serve(
    request: Request,
    body: unknown,
    authInfo: AuthInfo | undefined,
    clientLeft?: AbortSignal,
  ): Promise<Reply | undefined>;
  /** Closes the instance: requests in flight end unanswered (499), later ones are left to the SDK's hosting. */
  close(): Promise<void>;
  /** Closes the instance once its calls in flight have ended (at once when none is); later requests are left to the SDK's hosting. */
  closeWhenIdle(): Promise<void>;
}

/** An instance connected to its transport. */
interface Connected {
  readonly instance: McpServer;
  readonly mux: ExchangeMux;
}

/** A lane over one instance of `create`, built with the first request it serves. */
export function createModernLane(create: () => McpServer): ModernLane {
  /** The instance, connected on first need; `undefined` inside when there is none to serve on (the SDK's hosting serves then). */
  let connected: Promise<Connected | undefined> | undefined;
  let closed = false;
  /** Per tool name, whether its input schema mirrors parameters in headers (only registered tools are kept). */
  const mirrors = new Map<string, boolean>();

  const connect = async (): Promise<Connected> => {
    const instance = await preparedInstance(create);
    const mux = new ExchangeMux(MODERN_REVISION);
    const server = instance.server;
    await instance.connect(mux);
    const reported = server.onerror;
    server.onerror = (error) => {
      if (!mux.bounceIfDelivering()) reported?.(error);
    };
    return { instance, mux };
  };

  const mirrorsParameters = (instance: McpServer, message: JSONRPCRequest): boolean => {
    if (message.method !== 'tools/call') return false;
    const name = message.params?.name as string;
    let known = mirrors.get(name);
    if (known === undefined) {
      const schema = instance.toolInputSchemaJson(name);
      if (schema === undefined) return false;
      known = JSON.stringify(schema).includes(MIRRORED_PARAMETER);
      mirrors.set(name, known);
    }
    return known;
  };

  return {
    async serve(request, body, authInfo, clientLeft = request.signal) {
      const message = laneRequest(request.headers, body);
      if (message === undefined || closed) return undefined;
      const lane = await (connected ??= connect().catch(() => undefined));
      if (lane === undefined) return undefined;
      const { instance, mux } = lane;
      if (mirrorsParameters(instance, message)) return undefined;
      const challenge = instance.resolveScopeChallenge(
        authInfo === undefined ? { request: message } : { request: message, authInfo },
      );
      if ((challenge instanceof Promise ? await challenge : challenge) !== undefined) return undefined;
      return mux.serve(message, { request, authInfo, clientLeft });
    },
    async close() {
      closed = true;
      await (await connected)?.mux.close();
    },
    async closeWhenIdle() {
      closed = true;
      await (await connected)?.mux.closeWhenIdle();
    },
  };
}

/**
 * An instance of `create` made ready for the modern era by the SDK's own hosting: it serves one
 * `server/discover` of its own through `createMcpHandler`, which lists the modern revision among the
 * instance's versions and installs its modern-only handlers (what the SDK does to every instance it
 * hosts, with functions it does not export). Its exchange closed, the instance can be connected again.
 */
async function preparedInstance(create: () => McpServer): Promise<McpServer> {
  const instance = create();
  const server = instance.server;
  const before = server.onclose;
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  const envelope = { [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION, [CLIENT_CAPABILITIES_META_KEY]: {} };
  const discover = { jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: envelope } };
  const headers = {
    'content-type': 'application/json',
    'mcp-protocol-version': MODERN_REVISION,
    'mcp-method': discover.method,
  };
  const request = new Request('http://lane.invalid/mcp', { method: 'POST', headers });
  const response = await createMcpHandler(() => instance, { legacy: 'reject' }).fetch(request, {
    parsedBody: discover,
  });
  await response.body?.cancel();
  await closed;
  server.onclose = before;
  if (!response.ok) throw new Error(`The SDK's hosting did not serve server/discover (HTTP ${response.status}).`);
  return instance;
}
