/**
 * A bare JSON-RPC peer on an in-memory transport, served by the SDK's `serveStdio`: it sends
 * requests as the SDK client does (modern: the `_meta` envelope on every request; legacy:
 * `initialize` first, pushes answered), does no validation of its own, and shows every result as
 * sent, including the `requestState` an SDK client would hide. Its own cost per call is small,
 * so timings through it are mostly the server's.
 */
import type { JSONRPCMessage, JSONRPCRequest, McpServerFactory } from '@modelcontextprotocol/server';
import {
  InMemoryTransport,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

/** The per-request envelope an SDK client pinned to 2026-07-28 sends (captured from a real exchange). */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'mcp-resolve-bench', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
} as const;

/** A JSON-RPC result, as a plain record. */
export type RawResult = Readonly<Record<string, unknown>>;

/** The peer: one request at a time, answered in order. */
export interface RawPeer {
  /** Sends a request and resolves with its result (rejects with the JSON-RPC error message). */
  request(method: string, params: Record<string, unknown>): Promise<RawResult>;
  close(): Promise<void>;
}

/** How a bare peer speaks. */
export interface RawPeerOptions {
  /** `modern` (default) sends the 2026-07-28 envelope; `legacy` initializes a 2025-11-25 session. */
  readonly era?: 'modern' | 'legacy';
  /** Answers a server-to-client request (a legacy push) with its result. */
  readonly onPush?: (request: JSONRPCRequest) => Record<string, unknown>;
}

/** Connects a bare peer to one instance of `factory`, in process. */
export async function connectRawPeer(factory: McpServerFactory, options: RawPeerOptions = {}): Promise<RawPeer> {
  const era = options.era ?? 'modern';
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(factory, { transport: serverEnd });
  const waiting = new Map<number, { resolve(result: RawResult): void; reject(error: Error): void }>();
  clientEnd.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message)) {
      const result = options.onPush?.(message);
      if (result !== undefined) void clientEnd.send({ jsonrpc: '2.0', id: message.id, result }).catch(() => {});
      return;
    }
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return;
    const id = typeof message.id === 'number' ? message.id : -1;
    const pending = waiting.get(id);
    if (pending === undefined) return;
    waiting.delete(id);
    if (isJSONRPCErrorResponse(message)) pending.reject(new Error(message.error.message));
    else pending.resolve(message.result);
  };
  await clientEnd.start();
  let nextId = 1;
  const peer: RawPeer = {
    request(method, params) {
      const id = nextId++;
      return new Promise<RawResult>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        const sent = era === 'modern' ? { ...params, _meta: MODERN_META } : params;
        clientEnd.send({ jsonrpc: '2.0', id, method, params: sent }).catch(reject);
      });
    },
    async close() {
      await clientEnd.close();
      await served.close();
    },
  };
  if (era === 'legacy') {
    await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: MODERN_META['io.modelcontextprotocol/clientCapabilities'],
      clientInfo: MODERN_META['io.modelcontextprotocol/clientInfo'],
    });
    await clientEnd.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  return peer;
}

/** One modern tool call driven round by round: the `requestState` of every round, and the final result. */
export interface ModernTrace {
  readonly states: readonly string[];
  readonly result: RawResult;
}

/** Answers one embedded request: its key, and the request as sent (`{ method, params }`). */
export type RawAnswer = (key: string, request: unknown) => unknown;

/** The `inputResponses` and echoed `requestState` of the round after an `input_required` result. */
function continuation(result: RawResult, answer: RawAnswer): Record<string, unknown> {
  const requests = result['inputRequests'];
  const state = result['requestState'];
  const asked: Readonly<Record<string, unknown>> =
    typeof requests === 'object' && requests !== null ? { ...requests } : {};
  return {
    inputResponses: Object.fromEntries(Object.entries(asked).map(([key, request]) => [key, answer(key, request)])),
    ...(typeof state === 'string' && { requestState: state }),
  };
}

/** Calls `tool` on the modern era, answering every embedded request with `answer(key, request)`, and records each round's state. */
export async function traceModernCall(
  peer: RawPeer,
  tool: string,
  args: Record<string, unknown>,
  answer: RawAnswer,
  maxRounds = 20,
): Promise<ModernTrace> {
  const states: string[] = [];
  let extra: Record<string, unknown> = {};
  for (let round = 0; round <= maxRounds; round++) {
    const result = await peer.request('tools/call', { name: tool, arguments: args, ...extra });
    if (result['resultType'] !== 'input_required') return { states, result };
    const state = result['requestState'];
    if (typeof state === 'string') states.push(state);
    extra = continuation(result, answer);
  }
  throw new Error(`${tool}: still asking after ${maxRounds} rounds`);
}

/**
 * Calls `tool` on the modern era and leaves the call suspended: sends legs, answering with
 * `answer(key, request)`, until the server has answered `rounds` of them with `input_required`,
 * and returns that last `input_required` result (never answered). Throws if the call completes first.
 */
export async function suspendModernCall(
  peer: RawPeer,
  tool: string,
  args: Record<string, unknown>,
  answer: RawAnswer,
  rounds: number,
): Promise<RawResult> {
  let extra: Record<string, unknown> = {};
  for (let round = 1; ; round++) {
    const result = await peer.request('tools/call', { name: tool, arguments: args, ...extra });
    if (result['resultType'] !== 'input_required') {
      throw new Error(`${tool}: completed after ${round - 1} round(s), expected to suspend in round ${rounds}`);
    }
    if (round >= rounds) return result;
    extra = continuation(result, answer);
  }
}
