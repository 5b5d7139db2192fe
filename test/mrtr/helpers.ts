/** Shared helpers of the handler-shape tests: connect to a deck option, drive rounds by hand, read results. */
import type { CallToolResult, ClientCapabilities, ElicitResult, InputRequest } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { McpResolveServerOptions } from 'mcp-resolve';
import type { ConnectOptions, ManualConnection, LegResult, TestConnection } from 'mcp-resolve/testing';
import { connectInProcess, connectManual as connectManualClient } from 'mcp-resolve/testing';
import { afterEach, expect } from 'vitest';

import { auditCount } from '../../examples/mrtr-options/weather.js';

/** The sealing key every fleet member shares (32 bytes, hex). */
export const KEY = '0f1e2d3c4b5a69788796a5b4c3d2e1f0'.repeat(2);

/** Options giving a server the shared key: instances built with them open each other's state. */
export const SHARED: McpResolveServerOptions = { requestState: { keys: [KEY] } };

/** The call every test makes. */
export const TOKYO = { location: 'Tokyo' } as const;

/** The frozen error a rejected `requestState` answers with. */
export const FROZEN = {
  code: -32602,
  message: 'Invalid or expired requestState',
  data: { reason: 'invalid_request_state' },
};

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup().catch(() => {})));
});

/** Runs `cleanup` after the current test. */
export function onCleanup(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

/** An accepted elicitation answer. */
export function accept(content: NonNullable<ElicitResult['content']>): ElicitResult {
  return { action: 'accept', content };
}

/** The answer the deck's human gives: always `units`. */
export const answerUnits = (units: 'metric' | 'imperial') => (): ElicitResult => accept({ units });

/** Connects a client in process; closed after the test. */
export async function connect(factory: McpServerFactory, options: ConnectOptions): Promise<TestConnection> {
  const connection = await connectInProcess(factory, options);
  onCleanup(() => connection.close());
  return connection;
}

/** The text of a tool result. */
export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/** What one logical call looked like from the client, and how often the server ran its side effect meanwhile. */
export interface Observed {
  readonly text: string;
  readonly isError: boolean;
  readonly questions: number;
  readonly legs: number;
  readonly pushes: number;
  readonly audits: number;
}

/** Makes one `weather` call on `connection`, counting questions, legs, pushes and audits (in-process audit counter). */
export async function observe(connection: TestConnection, args: Record<string, unknown> = TOKYO): Promise<Observed> {
  connection.counters.reset();
  const before = auditCount();
  const result = await connection.client.callTool({ name: 'weather', arguments: args });
  const questions = Object.values(connection.counters.questions).reduce((sum, count) => sum + count, 0);
  return {
    text: textOf(result),
    isError: result.isError === true,
    questions,
    legs: connection.counters.legs['tools/call'] ?? 0,
    pushes: connection.counters.pushes,
    audits: auditCount() - before,
  };
}

/** One manual modern round: the final result, or the questions and state of `input_required`. */
export type Round = LegResult;

/** A modern client that never fulfils `input_required` by itself. */
export type ManualClient = ManualConnection;

/** Connects a pinned modern client with auto-fulfilment off to one instance of `factory`; closed after the test. */
export async function connectManual(
  factory: McpServerFactory,
  capabilities?: ClientCapabilities,
): Promise<ManualClient> {
  const connection = await connectManualClient(factory, capabilities);
  onCleanup(() => connection.close());
  return connection;
}

/** Narrows a round to `input_required`. */
export function pending(round: Round): Extract<Round, { kind: 'input_required' }> {
  if (round.kind !== 'input_required') return expect.fail(`expected input_required, got: ${textOf(round.result)}`);
  return round;
}

/** Narrows a round to its final result. */
export function complete(round: Round): CallToolResult {
  if (round.kind !== 'complete')
    return expect.fail(`expected a result, got input_required for ${Object.keys(round.inputRequests).join(', ')}`);
  return round.result;
}

/** The message of an elicitation request. */
export function messageOf(request: InputRequest | undefined): string {
  if (request?.method !== 'elicitation/create')
    return expect.fail(`expected an elicitation, got ${String(request?.method)}`);
  return request.params.message;
}

/** Answers every question of `round` with `answer`, for the next round. */
export function answerAll(
  round: Extract<Round, { kind: 'input_required' }>,
  answer: (request: InputRequest) => unknown,
): { inputResponses: Record<string, unknown>; requestState: string | undefined } {
  const inputResponses = Object.fromEntries(
    Object.entries(round.inputRequests).map(([key, request]) => [key, answer(request)]),
  );
  return { inputResponses, requestState: round.requestState };
}

/**
 * Drives one logical modern call where every round reaches a brand-new server built by `fresh()`
 * (its own McpResolveServer, nothing shared but the sealing key): the final result and the rounds it took.
 */
export async function acrossFreshInstances(
  fresh: () => McpServerFactory,
  answer: (request: InputRequest) => unknown,
  maxRounds = 5,
): Promise<{ result: CallToolResult; rounds: number }> {
  let continuation: { inputResponses?: Record<string, unknown>; requestState?: string | undefined } = {};
  for (let rounds = 1; rounds <= maxRounds; rounds++) {
    const client = await connectManual(fresh());
    const round = await client.round('weather', TOKYO, continuation);
    if (round.kind === 'complete') return { result: round.result, rounds };
    continuation = answerAll(round, answer);
  }
  return expect.fail(`no result after ${maxRounds} rounds`);
}

/** Awaits a call that must fail with a top-level JSON-RPC error, and returns it. */
export async function protocolError(promise: Promise<unknown>): Promise<ProtocolError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) return expect.fail(`expected a JSON-RPC error, got ${JSON.stringify(outcome.value)}`);
  if (!(outcome.error instanceof ProtocolError)) {
    return expect.fail(`expected a ProtocolError, got ${String(outcome.error)}`);
  }
  return outcome.error;
}
