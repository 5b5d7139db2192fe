/**
 * SDK seam: an SDK server instance made modern (2026-07-28) outside the SDK's hosting, for the
 * modern lane, which connects one instance to its own transport (`ExchangeMux`) and serves request
 * after request on it.
 *
 * What is relied on, beyond the SDK's public API (a seam, pinned by its test):
 * `createMcpHandler`, serving a modern request, makes the instance it is given modern (the revision
 * among its versions, its modern-only handlers installed: functions the SDK does not export), and an
 * instance whose exchange has closed (`Server.onclose` called) may be connected again, staying
 * modern. (The lane also relies on `Server.onerror` being called inside the transport's `onmessage`
 * for a message the instance cannot take; its test pins that beside this seam.)
 */
import type { McpServer, Server } from '@modelcontextprotocol/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';

/**
 * Makes `instance` ready for the modern `revision` by the SDK's own hosting: it serves one
 * `server/discover` of its own through `createMcpHandler` (`server.onclose` is swapped meanwhile to
 * learn when that exchange has closed). The exchange closed, the instance can be connected again;
 * throws when the SDK's hosting did not serve the discovery.
 */
export async function primeModernInstance(instance: McpServer, revision: string): Promise<McpServer> {
  const exchangeClosed = nextClose(instance.server);
  // The handler's `fetch` is a plain function (it uses no `this`).
  const { fetch: serveOnce } = createMcpHandler(() => instance, { legacy: 'reject' });
  const response = await serveOnce(discoverRequest(revision), { parsedBody: discoverBody(revision) });
  await response.body?.cancel();
  await exchangeClosed;
  if (!response.ok) throw new Error(`The SDK's hosting did not serve server/discover (HTTP ${response.status}).`);
  return instance;
}

/** Resolves when `server` next closes, its `onclose` handler swapped meanwhile and put back then. */
function nextClose(server: Server): Promise<void> {
  const before = server.onclose;
  return new Promise((resolve) => {
    server.onclose = () => {
      server.onclose = before;
      resolve();
    };
  });
}

/** The HTTP request of a `server/discover` on `revision` (its body is {@link discoverBody}). */
function discoverRequest(revision: string): Request {
  const headers = { 'content-type': 'application/json', 'mcp-protocol-version': revision, 'mcp-method': DISCOVER };
  return new Request('http://lane.invalid/mcp', { method: 'POST', headers });
}

/** A `server/discover` request on `revision`, from a client that declares no capabilities. */
function discoverBody(revision: string) {
  const envelope = { [PROTOCOL_VERSION_META_KEY]: revision, [CLIENT_CAPABILITIES_META_KEY]: {} };
  return { jsonrpc: '2.0', id: 0, method: DISCOVER, params: { _meta: envelope } };
}

const DISCOVER = 'server/discover';
