/** Shared helpers for the resolver contract tests: connect a client to a server on an era, read results. */
export type { LegResult } from 'mcp-resolve/testing';
import type {
  CallToolResult,
  ClientCapabilities,
  ElicitResult,
  InputRequest,
  JSONRPCMessage,
  JSONRPCResponse,
  RequestId,
} from '@modelcontextprotocol/client';
import {
  InMemoryTransport,
  isCallToolResult,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
} from '@modelcontextprotocol/client';
import type { McpResolveServerOptions, SampleResult } from 'mcp-resolve';
import { McpResolveServer } from 'mcp-resolve';
import { serveStdio } from 'mcp-resolve/node';
import type { ConnectOptions, ManualConnection, LegResult, TestConnection } from 'mcp-resolve/testing';
import type { Era } from 'mcp-resolve';
import { connectInProcess, connectManual as connectManualClient } from 'mcp-resolve/testing';
import { afterEach, expect } from 'vitest';

/** Both eras, for `describe.each`. */
export const ERAS: readonly Era[] = ['modern', 'legacy'];

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  // Last opened, first closed: a stream before its session, a session before its server.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** Runs `cleanup` after the current test (in reverse order of registration). */
export function onCleanup(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

/** Connects a client to `server` in-process; closed automatically after the test. */
export async function connect(server: McpResolveServer, options: ConnectOptions): Promise<TestConnection> {
  const connection = await connectInProcess(server.createServer, options);
  onCleanup(() => connection.close());
  return connection;
}

/** The text of a tool result's content blocks. */
export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/** Calls `name` and returns the (final) result, typed as a plain tool result. */
export async function call(
  connection: TestConnection,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return await connection.client.callTool({ name, arguments: args });
}

/** The server identity every test server uses. */
export const INFO = { name: 'test', version: '1.0.0' } as const;

/** A fresh server named `test` (each test builds its own). */
export function newServer(options?: McpResolveServerOptions): McpResolveServer {
  return new McpResolveServer(INFO, options);
}

/** Every question kind, answered: the capabilities a manual client declares by default. */
export const ALL_CAPABILITIES: ClientCapabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };

/** A manual modern client (see `connectManual` in the testing entry). */
export type ManualClient = ManualConnection;

/** Connects a manual modern client to `server` in-process; closed after the test. */
export async function connectManual(
  server: McpResolveServer,
  capabilities: ClientCapabilities = ALL_CAPABILITIES,
): Promise<ManualClient> {
  const connection = await connectManualClient(server.createServer, capabilities);
  onCleanup(() => connection.close());
  return connection;
}

/** Narrows a round to `input_required` (fails the test otherwise). */
export function asked(outcome: LegResult): Extract<LegResult, { kind: 'input_required' }> {
  if (outcome.kind !== 'input_required') {
    expect.fail(`expected an input_required round, got a complete result: ${textOf(outcome.result)}`);
  }
  return outcome;
}

/** Narrows a round to its final result (fails the test otherwise). */
export function completed(outcome: LegResult): CallToolResult {
  if (outcome.kind !== 'complete') {
    expect.fail(`expected a complete result, got input_required for ${Object.keys(outcome.inputRequests).join(', ')}`);
  }
  return outcome.result;
}

/** The message of an elicitation request (fails the test for any other kind). */
export function messageOf(request: InputRequest | undefined): string {
  if (request?.method !== 'elicitation/create') expect.fail(`expected an elicitation request, got ${request?.method}`);
  return request.params.message;
}

/** The property names of an elicitation request's form schema (fails the test for any other kind). */
export function schemaKeysOf(request: InputRequest | undefined): string[] {
  if (request?.method !== 'elicitation/create' || !('requestedSchema' in request.params)) {
    return expect.fail(`expected a form elicitation request, got ${request?.method}`);
  }
  return Object.keys(request.params.requestedSchema.properties);
}

/** Accepted elicitation content. */
export type Content = NonNullable<ElicitResult['content']>;

/** An accepted elicitation answer. */
export function accept(content: Content): { action: 'accept'; content: Content } {
  return { action: 'accept', content };
}

/** A text sampling result. */
export function sampled(text: string): {
  role: 'assistant';
  content: { type: 'text'; text: string };
  model: string;
} {
  return { role: 'assistant', content: { type: 'text', text }, model: 'test-model' };
}

/** The text of a sampling result (either shape). */
export function sampleText(result: SampleResult): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** What a raw legacy call ended with: a tool result, or a top-level JSON-RPC error. */
export type RawCallOutcome =
  | { readonly result: CallToolResult; readonly error?: undefined }
  | { readonly result?: undefined; readonly error: { code: number; message: string; data?: unknown } };

/** A raw legacy (2025-11-25) client: answers each server push with whatever the test returns, unvalidated. */
export interface RawLegacyClient {
  /** Calls a tool; `answer` receives each push (method, params) and returns the raw `result` to send back. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    answer: (method: string, params: unknown) => Record<string, unknown>,
  ): Promise<RawCallOutcome>;
}

/**
 * Connects a JSON-RPC-level legacy client (no SDK `Client`, so nothing validates what it answers)
 * to `server` in-process, declaring `capabilities` in `initialize`; closed after the test.
 */
export async function connectRawLegacy(
  server: McpResolveServer,
  capabilities: ClientCapabilities = ALL_CAPABILITIES,
): Promise<RawLegacyClient> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(server.createServer, { transport: serverEnd });
  onCleanup(async () => {
    await clientEnd.close();
    await served.close();
  });
  const waiting = new Map<RequestId, (message: JSONRPCResponse) => void>();
  let answer: (method: string, params: unknown) => Record<string, unknown> = () => ({});
  clientEnd.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message)) {
      void clientEnd.send({ jsonrpc: '2.0', id: message.id, result: answer(message.method, message.params) });
    } else if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      if (message.id !== undefined) waiting.get(message.id)?.(message);
    }
  };
  await clientEnd.start();
  let nextId = 1;
  const request = async (method: string, params: Record<string, unknown>): Promise<JSONRPCResponse> => {
    const id = nextId++;
    const reply = new Promise<JSONRPCResponse>((resolve) => waiting.set(id, resolve));
    await clientEnd.send({ jsonrpc: '2.0', id, method, params });
    return reply;
  };
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities,
    clientInfo: { name: 'raw-legacy', version: '0.0.0' },
  });
  await clientEnd.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    async callTool(name, args, answerPush) {
      answer = answerPush;
      const reply = await request('tools/call', { name, arguments: args });
      if (isJSONRPCErrorResponse(reply)) return { error: reply.error };
      if (!isCallToolResult(reply.result)) return expect.fail(`not a tool result: ${JSON.stringify(reply.result)}`);
      return { result: reply.result };
    },
  };
}
