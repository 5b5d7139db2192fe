/**
 * A fleet: two server processes with the same keys and name complete each other's rounds; with
 * different names, or each with its default per-process key, they refuse with the frozen error.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import type { InputRequiredResult } from '@modelcontextprotocol/client';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';

import { listeningUrl } from '../../examples/stories/lib/serverProcess.js';
import { FROZEN } from './helpers.js';

const SERVER = fileURLToPath(new URL('../fixtures/fleet-server.ts', import.meta.url));
const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/** Starts one server process and returns its URL. */
async function startServer(name: string, keys: string | undefined): Promise<URL> {
  const env = { ...process.env };
  if (keys === undefined) delete env.MCP_REQUEST_STATE_KEYS;
  else env.MCP_REQUEST_STATE_KEYS = keys;
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, '--name', name], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  stops.push(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  return listeningUrl(child, { name: 'fleet server' });
}

/** A modern client on `url` that leaves input_required to the test. */
async function manualClient(url: URL): Promise<Client> {
  const client = new Client(
    { name: 'fleet-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  stops.push(() => client.close());
  return client;
}

function round(client: Client, inputResponses?: Record<string, unknown>, requestState?: string): Promise<unknown> {
  return client.request(
    {
      method: 'tools/call',
      params: {
        name: 'two_rounds',
        arguments: {},
        ...(inputResponses !== undefined && { inputResponses }),
        ...(requestState !== undefined && { requestState }),
      },
    },
    { allowInputRequired: true },
  );
}

const accept = (content: Record<string, string>) => ({ action: 'accept', content });

async function expectFrozen(call: Promise<unknown>): Promise<void> {
  const error = await call.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ProtocolError);
  const { code, message, data } = error as ProtocolError;
  expect({ code, message, data }).toEqual(FROZEN);
}

describe('two server processes', () => {
  it('with the same keys and name complete each other’s rounds', async () => {
    const keys = randomBytes(32).toString('hex');
    const [a, b] = await Promise.all([startServer('desk', keys), startServer('desk', keys)]);
    const [onA, onB] = await Promise.all([manualClient(a), manualClient(b)]);
    const first = (await round(onA)) as InputRequiredResult;
    expect(Object.keys(first.inputRequests ?? {})).toEqual(['first']);
    const second = (await round(onB, { first: accept({ a: 'x' }) }, first.requestState)) as InputRequiredResult;
    expect(Object.keys(second.inputRequests ?? {})).toEqual(['second']);
    const done = await round(onA, { second: accept({ b: 'y' }) }, second.requestState);
    expect(done).toMatchObject({ content: [{ type: 'text', text: 'x+y' }] });
  });

  it('with the same keys but different names refuse each other’s state', async () => {
    const keys = randomBytes(32).toString('hex');
    const [a, b] = await Promise.all([startServer('desk', keys), startServer('other-desk', keys)]);
    const [onA, onB] = await Promise.all([manualClient(a), manualClient(b)]);
    const first = (await round(onA)) as InputRequiredResult;
    await expectFrozen(round(onB, { first: accept({ a: 'x' }) }, first.requestState));
  });

  it('with their default per-process keys refuse each other’s state', async () => {
    const [a, b] = await Promise.all([startServer('desk', undefined), startServer('desk', undefined)]);
    const [onA, onB] = await Promise.all([manualClient(a), manualClient(b)]);
    const first = (await round(onA)) as InputRequiredResult;
    await expectFrozen(round(onB, { first: accept({ a: 'x' }) }, first.requestState));
  });
});
