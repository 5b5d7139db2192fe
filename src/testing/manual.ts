/**
 * A modern client that never fulfils `input_required` by itself: each `round()` is one
 * `tools/call` leg whose responses and state the test chooses — to see exactly what a round asks,
 * to answer out of order, or to replay, alter or drop `requestState`.
 */
import type { CallToolResult, ClientCapabilities, InputRequest, McpServerFactory } from '@modelcontextprotocol/server';
import { InMemoryTransport, isCallToolResult, isInputRequiredResult } from '@modelcontextprotocol/server';
import type { Client } from '@modelcontextprotocol/client';

import { serveTransport } from '../hosting/serveTransport.js';
import { sdk } from './clientSdk.js';
import { MODERN_PROTOCOL_VERSION } from './connection.js';

/** What one leg came back with: the final result, or the questions and state of an `input_required` round. */
export type LegResult =
  | { readonly kind: 'complete'; readonly result: CallToolResult }
  | {
      readonly kind: 'input_required';
      readonly inputRequests: Readonly<Record<string, InputRequest>>;
      readonly requestState: string | undefined;
    };

/** What a leg carries besides the tool's arguments. */
export interface Continuation {
  readonly inputResponses?: Record<string, unknown>;
  readonly requestState?: string | undefined;
}

/** A connected manual client. */
export interface ManualConnection {
  /** The SDK client (auto-fulfilment off), for requests `round()` does not cover. */
  readonly client: Client;
  /** Sends one `tools/call` leg. */
  round(name: string, args: Record<string, unknown>, continuation?: Continuation): Promise<LegResult>;
  /** Closes the client and the in-process server. */
  close(): Promise<void>;
}

/** Every capability a question can need: form elicitation, sampling and roots. */
const ALL_CAPABILITIES: ClientCapabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };

/** Connects a modern (2026-07-28) manual client to one in-process instance of `factory`. */
export async function connectManual(
  factory: McpServerFactory,
  capabilities: ClientCapabilities = ALL_CAPABILITIES,
): Promise<ManualConnection> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const served = serveTransport(factory, serverEnd, {});
  const client = new sdk.Client(
    { name: 'mcp-resolve-manual', version: '0.0.0' },
    {
      capabilities,
      versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } },
      inputRequired: { autoFulfill: false },
    },
  );
  try {
    await client.connect(clientEnd);
  } catch (error) {
    await served.close();
    throw error;
  }
  return {
    client,
    async round(name, args, continuation = {}) {
      const params: Record<string, unknown> = { name, arguments: args };
      if (continuation.inputResponses !== undefined) params.inputResponses = continuation.inputResponses;
      if (continuation.requestState !== undefined) params.requestState = continuation.requestState;
      const result: unknown = await client.request({ method: 'tools/call', params }, { allowInputRequired: true });
      if (isInputRequiredResult(result)) {
        return { kind: 'input_required', inputRequests: result.inputRequests ?? {}, requestState: result.requestState };
      }
      if (!isCallToolResult(result))
        throw new Error(`tools/call returned neither a result nor input_required: ${JSON.stringify(result)}`);
      return { kind: 'complete', result };
    },
    async close() {
      await client.close();
      await served.close();
    },
  };
}
